package remoting

import (
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
)

// Request is a decoded request as a handler sees it.
type Request struct {
	Ch  *Channel
	Cmd *Command
	// Arrived is when the frame was decoded, for queue-time flow control.
	Arrived time.Time
	// Suspended is set once the request was parked and resubmitted (a
	// long-polling pull), Java's RemotingCommand.isSuspended.
	Suspended bool
	// pool is the pool that serves the request (nil for the fallback).
	pool *Pool
	// observe, when set, is told of each response written (Router.Observe).
	observe Observer
}

// Observer is told of each response the server writes (or fails to) for
// a request: the broker's RPC latency metric. It runs on the goroutine
// that wrote the response and must not block.
type Observer func(req *Request, resp *Command, err error)

// SendParts writes resp with parts as its body (see Channel.SendParts),
// and tells the router's observer.
func (r *Request) SendParts(resp *Command, parts [][]byte, done func()) error {
	err := r.Ch.SendParts(resp, parts, done)
	r.observed(resp, err)
	return err
}

func (r *Request) observed(resp *Command, err error) {
	if r.observe != nil {
		r.observe(r, resp, err)
	}
}

// Resubmit queues the request again on the pool that served it, to be
// served by h and answered through the pool's normal reply path (a parked
// long-polling pull that a message woke). When the pool's queue is full
// the request is answered SYSTEM_BUSY at once, as a new request would be;
// it reports whether h was queued.
func (r *Request) Resubmit(h Handler) bool {
	if r.pool == nil {
		return false
	}
	t := &routedRequest{Request: *r, h: h, queued: time.Now()}
	t.Suspended = true
	if t.pool.tasks.push(t) {
		return true
	}
	t.reply(t.pool.log, NewResponse(r.Cmd, SystemBusy, remarkOverload))
	return false
}

// Handler serves one request. It returns the response to send, or nil when
// there is none now: the request is oneway, or the handler answers later
// with Request.Ch.Send (a parked long-polling pull).
type Handler func(req *Request) *Command

// Remarks Java's server framework answers with (see NettyRemotingAbstract).
const (
	remarkOverload = "[OVERLOAD]system busy, start flow control for a while"
)

// PoolOptions sizes one handler family's worker pool.
type PoolOptions struct {
	Name    string
	Workers int
	// Queue bounds the requests waiting for a worker; a request that finds
	// it full is answered SYSTEM_BUSY at once.
	Queue int
	// MaxWait, when set, answers SYSTEM_BUSY to a request that waited in
	// the queue longer, as Java's waitTimeMillsInSendQueue does.
	MaxWait time.Duration
	// BusyRemark formats the remark for MaxWait rejections.
	BusyRemark func(waited time.Duration, queued int) string
	// PerConnection, when set, bounds how many of one connection's
	// requests the pool holds, queued or served: at the bound the server
	// decodes none of that connection's frames until one is done
	// (pool_share.go).
	PerConnection int
}

// Pool is a bounded worker pool serving one family of request codes.
type Pool struct {
	opts  PoolOptions
	tasks *taskQueue
	log   *zap.Logger
	wg    sync.WaitGroup
	// lastWait is how long (ns) the request a worker took last had waited.
	lastWait atomic.Int64
}

// Len is how many requests wait in the pool's queue.
func (p *Pool) Len() int { return p.tasks.len() }

// LastWait is how long the request a worker took last had waited in the
// queue (0 once the queue is empty): the broker's "head wait time".
func (p *Pool) LastWait() time.Duration {
	if p.tasks.len() == 0 {
		return 0
	}
	return time.Duration(p.lastWait.Load())
}

type routedRequest struct {
	Request
	h Handler
	// queued is when the request entered the queue (Arrived, unless it
	// was resubmitted), for the pool's wait figures.
	queued time.Time
	// shared is set when the request counts in its channel's share of the
	// pool (PoolOptions.PerConnection).
	shared bool
}

// done releases the request's share of its pool, if it took one.
func (t *routedRequest) done() {
	if t.shared {
		t.shared = false
		t.Ch.shareDone(int32(t.pool.opts.PerConnection))
	}
}

type route struct {
	pool *Pool
	h    Handler
}

// Router maps request codes to handlers and their pools. It is built once,
// before the server starts, and read without locks afterwards.
type Router struct {
	log      *zap.Logger
	routes   map[int32]route
	pools    []*Pool
	fallback Handler
	observe  Observer
	once     sync.Once
	stopOnce sync.Once
}

// NewRouter returns an empty router; unknown codes are answered
// REQUEST_CODE_NOT_SUPPORTED as Java answers them.
func NewRouter(log *zap.Logger) *Router {
	if log == nil {
		log = zap.NewNop()
	}
	return &Router{log: log, routes: make(map[int32]route), fallback: NotSupported}
}

// NotSupported answers a request whose code has no handler.
func NotSupported(req *Request) *Command {
	return NewResponse(req.Cmd, RequestCodeNotSupported,
		fmt.Sprintf(" request type %d not supported", req.Cmd.Code))
}

// NewPool adds a worker pool; its workers start with the first Start.
func (r *Router) NewPool(opts PoolOptions) *Pool {
	if opts.Workers < 1 {
		opts.Workers = 1
	}
	if opts.Queue < 1 {
		opts.Queue = 1
	}
	p := &Pool{opts: opts, tasks: newTaskQueue(opts.Queue), log: r.log}
	r.pools = append(r.pools, p)
	return p
}

// Handle routes code to h, run on pool.
func (r *Router) Handle(code RequestCode, pool *Pool, h Handler) {
	r.routes[int32(code)] = route{pool: pool, h: h}
}

// Observe sets the observer of every response; call it before Start.
func (r *Router) Observe(o Observer) { r.observe = o }

// SetFallback replaces the handler for codes nobody handles.
func (r *Router) SetFallback(h Handler) { r.fallback = h }

// Start starts every pool's workers. It is safe to call more than once.
func (r *Router) Start() {
	r.once.Do(func() {
		for _, p := range r.pools {
			p.start()
		}
	})
}

// Stop stops the pools after the requests already queued are served. Its
// caller makes sure nothing dispatches any more; calling it again is a no-op.
func (r *Router) Stop() {
	r.stopOnce.Do(func() {
		for _, p := range r.pools {
			p.tasks.close()
		}
		for _, p := range r.pools {
			p.wg.Wait()
		}
	})
}

// dispatch queues a request for its pool, or answers it at once when the
// code is unknown or the pool is full. It never blocks.
func (r *Router) dispatch(ch *Channel, cmd *Command) {
	rt, ok := r.routes[cmd.Code]
	if !ok {
		// Java 4.9.8 answers an unknown code even when it came oneway.
		req := &Request{Ch: ch, Cmd: cmd, Arrived: time.Now(), observe: r.observe}
		if resp := r.fallback(req); resp != nil {
			resp.Opaque, resp.Flag = cmd.Opaque, resp.Flag|FlagResponse
			err := ch.Send(resp)
			if err != nil {
				r.log.Debug("reply not sent", zap.String("remote", ch.RemoteAddr()), zap.Error(err))
			}
			req.observed(resp, err)
		}
		return
	}
	now := time.Now()
	task := &routedRequest{Request: Request{Ch: ch, Cmd: cmd, Arrived: now, pool: rt.pool, observe: r.observe}, h: rt.h, queued: now}
	if bound := rt.pool.opts.PerConnection; bound > 0 {
		task.shared = true
		ch.shareTaken(int32(bound))
	}
	if !rt.pool.tasks.push(task) {
		task.done()
		task.reply(r.log, NewResponse(cmd, SystemBusy, remarkOverload))
	}
}

func (p *Pool) start() {
	for i := 0; i < p.opts.Workers; i++ {
		p.wg.Add(1)
		go p.work()
	}
}

func (p *Pool) work() {
	defer p.wg.Done()
	for {
		t, ok := p.tasks.pop()
		if !ok {
			return
		}
		p.serve(t)
	}
}

// serve runs one handler, turning a panic into SYSTEM_ERROR as Java turns
// a processor's exception into one.
func (p *Pool) serve(t *routedRequest) {
	defer t.done()
	waited := time.Since(t.queued)
	p.lastWait.Store(int64(waited))
	if p.opts.MaxWait > 0 {
		if waited > p.opts.MaxWait {
			if !t.Cmd.IsOneway() && p.opts.BusyRemark != nil {
				t.reply(p.log, NewResponse(t.Cmd, SystemBusy, p.opts.BusyRemark(waited, p.tasks.len())))
				return
			}
		}
	}
	defer func() {
		if v := recover(); v != nil {
			p.log.Error("handler panicked", zap.String("pool", p.opts.Name), zap.Int32("code", t.Cmd.Code),
				zap.Any("panic", v), zap.ByteString("stack", debug.Stack()))
			t.reply(p.log, NewResponse(t.Cmd, SystemError, fmt.Sprint(v)))
		}
	}()
	t.reply(p.log, t.h(&t.Request))
}

// Answer sends resp for a request whose handler returned nil to answer it
// later (a put completed when its slave's ack came), from any goroutine,
// as the pool would have: with the request's opaque, not for a oneway
// request, and told to the router's observer.
func (r *Request) Answer(resp *Command) {
	log := nopLog
	if r.pool != nil {
		log = r.pool.log
	}
	r.reply(log, resp)
}

// nopLog logs nothing (a request answered outside any pool).
var nopLog = zap.NewNop()

// reply sends resp for the request unless the request is oneway or resp
// is nil, and tells the observer of a response made (also one not sent
// because the request was oneway, as Java records it).
func (r *Request) reply(log *zap.Logger, resp *Command) {
	if resp == nil {
		return
	}
	if r.Cmd.IsOneway() {
		r.observed(resp, nil)
		return
	}
	resp.Opaque = r.Cmd.Opaque
	resp.Flag |= FlagResponse
	err := r.Ch.Send(resp)
	if err != nil {
		log.Debug("reply not sent", zap.String("remote", r.Ch.RemoteAddr()), zap.Error(err))
	}
	r.observed(resp, err)
}
