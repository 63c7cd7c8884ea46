package remoting

// A connection's share of a pool (PoolOptions.PerConnection).
//
// A pool may bound how many of one connection's requests it holds at a
// time, waiting in its queue or being served. At the bound, the server
// stops decoding that connection's frames: they wait, as bytes, in its
// inbound buffer until one of its requests is done, and then the handler's
// goroutine wakes the connection. A request that parks (a long-polling
// pull) is done as far as the bound is concerned.
//
// Why: a client that pipelines many pulls and reads none of the answers
// (a slow reader) made the broker decode them all at once, and each
// decoded pull then turned into an answer waiting to be sent. 2,000 such
// connections with 32 pulls each peaked at ~240 MiB of anonymous memory;
// the same bytes undecoded take a tenth of that. Java has no such bound
// (its pool queue is the only one); a Java consumer keeps one pull a queue
// in flight, and its pulls are served in the order they came.
//
// gnet cannot stop reading a socket, so a stalled connection's inbound
// buffer is bounded as a half-received frame is: past MaxFrame plus one
// read, its frames are decoded one per turn again. A connection served over
// crypto/tls (server_tls.go) has a goroutine of its own reading it, which
// simply waits: the client's further bytes stay in the socket.

import "sync/atomic"

// poolShare is what a channel keeps of its requests in bounded pools.
type poolShare struct {
	// pending counts the channel's requests in bounded pools.
	pending atomic.Int32
	// stalled is set while decoding waits for a pending request to be done.
	stalled atomic.Bool
	// wake asks the connection's event loop to decode again (nil for
	// connections that are never stalled).
	wake func()
}

// shareTaken counts a request entering a pool that bounds each
// connection's share to bound, and stalls the connection's decoding when
// it reaches the bound (event loop or reader goroutine only).
func (p *poolShare) shareTaken(bound int32) {
	if p.pending.Add(1) < bound {
		return
	}
	p.stalled.Store(true)
	if p.pending.Load() < bound {
		// A request was done in between, before it could see the stall.
		p.stalled.Store(false)
	}
}

// shareDone counts a request of a bounded pool done and wakes a stalled
// connection once it is under bound.
func (p *poolShare) shareDone(bound int32) {
	if p.pending.Add(-1) < bound && p.stalled.CompareAndSwap(true, false) && p.wake != nil {
		p.wake()
	}
}

// decodeStalled tells whether the connection's frames wait for one of its
// requests to be done.
func (p *poolShare) decodeStalled() bool { return p.stalled.Load() }

// stallingRoute wraps route for a connection read by a goroutine of its
// own: after each frame it waits while the connection's share of a bounded
// pool is full. It sets the channel's wake, before any request of it can
// be done.
func stallingRoute(ch *Channel, route func(*Channel, *Command)) func(*Channel, *Command) {
	woken := make(chan struct{}, 1)
	ch.wake = func() {
		select {
		case woken <- struct{}{}:
		default: // a wake-up is pending already
		}
	}
	return func(ch *Channel, cmd *Command) {
		route(ch, cmd)
		for ch.decodeStalled() {
			<-woken
		}
	}
}
