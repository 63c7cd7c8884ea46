package main

// rmqbench route: GET_ROUTEINFO_BY_TOPIC (105) as fast as it goes, the
// request a 4.9.8 Java client sends (JSON header, version 409, header
// topic), to the first address of -n.

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/rmqgo/rmqgo/remoting"
)

func runRoute(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flagsOf("route", stderr)
	namesrv := fs.String("n", "127.0.0.1:9876", "name server address (the first of a ';' list)")
	topic := fs.String("t", "TopicTest", "topic")
	version := fs.Int("version", int(remoting.DefaultVersion), "version header field (409 = V4_9_8; below 401 gets the old route JSON)")
	binary := fs.Bool("rocketmq-header", false, "send ROCKETMQ binary headers instead of JSON")
	var lf loadFlags
	lf.register(fs)
	if !parseChecked(fs, args, stderr, lf.validate) {
		return 2
	}
	addr := strings.TrimSpace(strings.Split(*namesrv, ";")[0])
	serialize := remoting.SerializeJSON
	if *binary {
		serialize = remoting.SerializeRocketMQ
	}
	call := func(c *remoting.Client) (int32, error) {
		req := remoting.NewRequest(remoting.GetRouteinfoByTopic, map[string]string{"topic": *topic})
		req.Version, req.SerializeType = int32(*version), serialize
		resp, err := c.InvokeTimeout(addr, req, lf.timeout)
		if err != nil {
			return 0, err
		}
		return resp.Code, nil
	}
	fmt.Fprintf(stdout, "route: GET_ROUTEINFO_BY_TOPIC topic=%s on %s, %d connections x %d in flight\n",
		*topic, addr, lf.conns, lf.inFlight)
	r := runLoad(ctx, &lf, call, stdout)
	if r.hist.total == 0 || r.failures() == r.hist.total {
		return 1
	}
	return 0
}
