package remoting

import (
	"sync"
	"sync/atomic"
)

// InProcess names a server of this process that a Client reaches without
// a socket: commands pass between the two as values, never encoded, read
// or written (the proxy in a broker's process, as Java's local proxy calls
// its broker's processors through LocalMessageService). The server sees a
// connection like any other: its handlers, pools, per-connection shares,
// OnOpen and OnClose, and requests of its own sent back to the client's
// router; what differs is that no frame is encoded and no idle scan or
// outbound bound applies.
type InProcess struct {
	// Addr is the address the client's callers give for the server.
	Addr   string
	Server *Server
	// Remote is the "host:port" the server sees the client at.
	Remote string
}

// inProcessConn is the two ends' shared writer: it only closes.
type inProcessConn struct{ shut func() }

func (p *inProcessConn) writeFrame([]byte) error { return errInProcessFrame }
func (p *inProcessConn) writeFrameParts(_ [][]byte, done func()) error {
	done()
	return errInProcessFrame
}
func (p *inProcessConn) close() error { p.shut(); return nil }

// connectInProcess opens an in-process connection from c to ip.Server and
// returns the client's end.
func (c *Client) connectInProcess(ip *InProcess) *Channel {
	return ip.open(c.nextCh.Add(1), &c.nextID, ip.Remote, c.route, func(ch *Channel) { c.lost(ch, nil) })
}

// inProcessIDs numbers the channels Dial opens.
var inProcessIDs atomic.Uint64

// Dial opens an in-process connection of its own to ip.Server, which sees
// it at remote (one per client a proxy registers on its clients' behalf,
// as Java's local proxy registers a channel per gRPC client). router
// serves the requests the server sends on it; onClose, when set, is told
// once it goes, whichever end closed it.
func (ip *InProcess) Dial(remote string, router *Router, onClose func(*Channel)) *Channel {
	route := func(ch *Channel, cmd *Command) {
		if cmd.IsResponse() {
			ch.deliverResponse(cmd)
			return
		}
		router.dispatch(ch, cmd)
	}
	lost := func(ch *Channel) {
		ch.markClosed()
		if onClose != nil {
			onClose(ch)
		}
	}
	return ip.open(inProcessIDs.Add(1), new(atomic.Int32), remote, route, lost)
}

// open connects a client end (numbered id, its requests numbered by
// opaque, seen by the server at remote) to the server: the client's
// commands go to the server's router, the server's to route; lost is told
// of the client's end when either end closes.
func (ip *InProcess) open(id uint64, opaque *atomic.Int32, remote string, route func(*Channel, *Command), lost func(*Channel)) *Channel {
	s := ip.Server
	conn := &inProcessConn{}
	cli := newChannel(id, remote, ip.Addr, conn, opaque)
	srv := newChannel(s.nextCh.Add(1), ip.Addr, remote, conn, &s.nextID)
	cli.peer = func(cmd *Command) { s.route(srv, cmd) }
	srv.peer = func(cmd *Command) { route(cli, cmd) }
	cli.inProcess, srv.inProcess = true, true
	conn.shut = sync.OnceFunc(func() {
		lost(cli)
		s.closed(srv, nil)
	})
	s.conns.Add(1)
	if s.opts.OnOpen != nil {
		s.opts.OnOpen(srv)
	}
	return cli
}

// sendInProcess hands cmd to the other end of an in-process connection.
// The command is the receiver's from then on: the sender does not touch
// it again, as it would not touch a frame it wrote.
func (ch *Channel) sendInProcess(cmd *Command) error {
	ch.peer(cmd)
	return nil
}

// sendPartsInProcess hands over a copy of cmd whose body is parts joined:
// the parts (mapped store pages, pooled buffers) are released by done, the
// receiver keeps the body.
func (ch *Channel) sendPartsInProcess(cmd *Command, parts [][]byte, done func()) error {
	size := 0
	for _, p := range parts {
		size += len(p)
	}
	body := make([]byte, 0, size)
	for _, p := range parts {
		body = append(body, p...)
	}
	done()
	c := *cmd
	c.Body = body
	ch.peer(&c)
	return nil
}
