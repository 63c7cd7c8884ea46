package broker

// The Prometheus exporter's HTTP server (metricsExporterType=PROM): GET
// /metrics (and /, as OpenTelemetry's PrometheusHttpServer answers both)
// on metricsPromExporterHost:metricsPromExporterPort, brokerIP1 when the
// host is blank. A port that cannot be bound fails the broker's start, as
// the Java broker's fails to initialize.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
)

// promContentType is the text format's content type.
const promContentType = "text/plain; version=0.0.4; charset=utf-8"

// metricsServer serves the scrapes.
type metricsServer struct {
	log     *zap.Logger
	metrics *brokerMetrics
	src     *metricsSources
	addr    string
	ln      net.Listener
	srv     *http.Server
}

// promAddr is where the exporter listens, or "" when metrics are off; a
// broker.conf that picks another exporter is logged, as this broker does
// not have it.
func promAddr(c *conf.BrokerConfig, log *zap.Logger) string {
	switch c.MetricsExporterType.Kind() {
	case conf.MetricsProm:
	case conf.MetricsDisable:
		return ""
	default:
		log.Error("metrics exporter not implemented, will not export metrics; rmqgo exports PROM only",
			zap.String("metricsExporterType", string(c.MetricsExporterType)))
		return ""
	}
	host := strings.TrimSpace(c.MetricsPromExporterHost)
	if host == "" {
		host = c.BrokerIP1
	}
	return net.JoinHostPort(host, strconv.Itoa(int(c.MetricsPromExporterPort)))
}

// start binds the port.
func (s *metricsServer) start() error {
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		return fmt.Errorf("broker: metrics exporter: %w", err)
	}
	s.ln = ln
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.serveScrape)
	mux.HandleFunc("GET /metrics", s.serveScrape)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: scrapeTimeout, WriteTimeout: scrapeTimeout}
	s.log.Info("metrics exporter started", zap.String("type", string(conf.MetricsProm)), zap.String("addr", ln.Addr().String()))
	return nil
}

// serve serves until stop.
func (s *metricsServer) serve(stop <-chan struct{}) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := s.srv.Serve(s.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("metrics exporter stopped", zap.Error(err))
		}
	}()
	<-stop
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = s.srv.Shutdown(ctx)
	<-done
}

// serveScrape answers one scrape.
func (s *metricsServer) serveScrape(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", promContentType)
	_, _ = w.Write(s.metrics.scrape(s.src))
}
