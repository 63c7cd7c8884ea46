package namesrv

import (
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/fastjson"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// BenchmarkRouteQuery is GET_ROUTEINFO_BY_TOPIC end to end over loopback:
// client encode, server decode, route lookup and encoding, response
// decode. 8 goroutines per CPU, each with its own connection and one call
// in flight.
func BenchmarkRouteQuery(b *testing.B) {
	o := testOptions(b, b.TempDir())
	o.Logger = zap.NewNop()
	ns, err := New(o)
	if err != nil {
		b.Fatal(err)
	}
	if err := ns.Start(); err != nil {
		b.Fatal(err)
	}
	defer ns.Close()
	setup := remoting.NewClient(remoting.ClientOptions{})
	defer setup.Close()
	for _, br := range []broker{brokerA, {"DefaultCluster", "broker-b", "192.168.1.12:10911", 0}} {
		if resp, err := setup.InvokeTimeout(ns.Addr(), registerRequest(br, body498(1), false, protocol.VersionV4_9_8), 5*time.Second); err != nil || resp.Code != 0 {
			b.Fatal(err, resp)
		}
	}
	var mu sync.Mutex
	var latencies []time.Duration
	b.SetParallelism(8)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		c := remoting.NewClient(remoting.ClientOptions{})
		defer c.Close()
		var mine []time.Duration
		for pb.Next() {
			t0 := time.Now()
			resp, err := c.InvokeTimeout(ns.Addr(), routeRequest("TopicTest", protocol.VersionV4_9_8), 5*time.Second)
			if err != nil || resp.Code != 0 {
				b.Error(err, resp)
				return
			}
			mine = append(mine, time.Since(t0))
		}
		mu.Lock()
		latencies = append(latencies, mine...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	b.StopTimer()
	reportLatency(b, latencies, elapsed)
}

func reportLatency(b *testing.B, latencies []time.Duration, elapsed time.Duration) {
	if len(latencies) == 0 {
		return
	}
	slices.Sort(latencies)
	pct := func(p float64) float64 {
		return float64(latencies[int(p*float64(len(latencies)-1))].Microseconds())
	}
	b.ReportMetric(float64(len(latencies))/elapsed.Seconds(), "req/s")
	b.ReportMetric(pct(0.50), "p50-µs")
	b.ReportMetric(pct(0.99), "p99-µs")
}

// BenchmarkRouteEncode is the lookup and Standard encoding of a route with
// two broker groups (master and slave each), the work one query does.
func BenchmarkRouteEncode(b *testing.B) {
	rt := newRouteTable(zap.NewNop(), newSettings(&Options{}), time.Now, 2*time.Minute)
	wrapper, err := protocol.DecodeRegisterBrokerBody(body498(1), false, protocol.VersionV4_9_8)
	if err != nil {
		b.Fatal(err)
	}
	for _, br := range []broker{brokerA, {"DefaultCluster", "broker-a", "192.168.1.11:10911", 1},
		{"DefaultCluster", "broker-b", "192.168.1.12:10911", 0}, {"DefaultCluster", "broker-b", "192.168.1.13:10911", 1}} {
		rt.registerBroker(&registration{cluster: br.cluster, addr: br.addr, name: br.name, id: br.id,
			wrapper: &wrapper.TopicConfigSerializeWrapper, filterServers: []string{}})
	}
	buf := make([]byte, 0, 1024)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		route := rt.pickupRoute("TopicTest")
		buf = route.AppendJSON(buf[:0], fastjson.Standard)
	}
	b.SetBytes(int64(len(buf)))
}

// BenchmarkRegisterBroker is a REGISTER_BROKER body of N topics decoded
// and applied to the route table, each with a new DataVersion (the path
// of a broker whose topics changed): the cost should grow linearly in N.
func BenchmarkRegisterBroker(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			rt := newRouteTable(zap.NewNop(), newSettings(&Options{}), time.Now, 2*time.Minute)
			w := protocol.TopicConfigSerializeWrapper{TopicConfigTable: map[string]protocol.TopicConfig{}}
			for i := range n {
				name := "ScaleTopic_" + strconv.Itoa(i)
				w.TopicConfigTable[name] = protocol.NewTopicConfig(name)
			}
			bodies := make([][]byte, 2)
			for i := range bodies {
				w.DataVersion.Next(time.Now(), 0)
				body := protocol.RegisterBrokerBody{TopicConfigSerializeWrapper: w, FilterServerList: []string{}}
				bodies[i] = body.AppendJSON(nil)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				rb, err := protocol.DecodeRegisterBrokerBody(bodies[i%2], false, protocol.VersionV4_9_8)
				if err != nil {
					b.Fatal(err)
				}
				rt.registerBroker(&registration{cluster: brokerA.cluster, addr: brokerA.addr, name: brokerA.name,
					wrapper: &rb.TopicConfigSerializeWrapper, filterServers: []string{}})
			}
		})
	}
}
