"""The C++ client as the tests drive it.

The tests talk to the servers only through librocketmq.so, the Apache C++
client that the rocketmq-client-python wheel carries, by way of that
package's ctypes wrapper. This module points producers and push consumers at
NAMESRV_ADDR, gives them unique names, shuts them down after a test, and adds
the C API call that the wrapper leaves out: SendMessageOrderly with a queue
selector (send to a chosen queue).
"""
import ctypes
import itertools
import os
import time

from rocketmq import client as rmq
from rocketmq.ffi import QUEUE_SELECTOR_CALLBACK, _CSendResult, dll

ConsumeStatus = rmq.ConsumeStatus
TransactionStatus = rmq.TransactionStatus
MessageModel = rmq.MessageModel
SendStatus = rmq.SendStatus

_names = itertools.count()


def namesrv():
    """NAMESRV_ADDR from $RUN_DIR/env.sh (run.sh sources it)."""
    addr = os.environ.get('NAMESRV_ADDR')
    if not addr:
        raise RuntimeError('NAMESRV_ADDR is not set: start the servers with compat/ref-servers.sh')
    return addr


def unique(prefix):
    """A topic or group name no other test or run uses."""
    return '%s_%d_%d_%d' % (prefix, os.getpid(), int(time.time() * 1000) % 10 ** 9, next(_names))


def message(topic, body, tags='', keys='', props=None):
    m = rmq.Message(topic)
    m.set_body(body)
    if tags:
        m.set_tags(tags)
    if keys:
        m.set_keys(keys)
    for k, v in (props or {}).items():
        m.set_property(k, v)
    return m


def create_topic(producer, topic, deadline=30.0):
    """Sends "create <topic>" (the broker makes the topic from TBW102) and returns that body.

    The C++ client's first send to a broker it has no connection to yet can fail on its own
    side: the heartbeat that a route change starts opens the connection at the same moment
    and the send gives up on the transport lock after a few milliseconds ("GetTransport ...
    get timed_mutex timeout", then "No route info of this topic"). So this first send is
    tried again until it succeeds or deadline seconds pass.
    """
    body = 'create %s' % topic
    end = time.monotonic() + deadline
    while True:
        try:
            r = producer.send_sync(message(topic, body))
            if r.status == SendStatus.OK:
                return body
            err = 'status %s' % r.status
        except Exception as e:  # the wrapper raises a ProducerSendSyncFailed
            err = repr(e)
        if time.monotonic() > end:
            raise AssertionError('could not create %s within %.0f s: %s' % (topic, deadline, err))
        time.sleep(0.2)  # between tries of the first send only, not a wait for the servers


class Clients(object):
    """Producers and consumers of one test, shut down in reverse order by close()."""

    def __init__(self):
        self._started = []

    def _started_client(self, c):
        # set_namesrv_addr in the 0.5 wrapper, set_name_server_address from 2.0.0 on.
        set_addr = getattr(c, 'set_name_server_address', None) or c.set_namesrv_addr
        set_addr(namesrv())
        return c

    def producer(self, group=None, orderly=False):
        p = self._started_client(rmq.Producer(group or unique('py_pg'), orderly=orderly))
        p.start()
        self._started.append(p)
        return p

    def transaction_producer(self, checker, group=None):
        p = self._started_client(rmq.TransactionMQProducer(group or unique('py_txpg'), checker))
        p.start()
        self._started.append(p)
        return p

    def push_consumer(self, topic, expression, listener, group=None, orderly=False,
                      model=MessageModel.CLUSTERING, instance=None):
        c = self._started_client(rmq.PushConsumer(group or unique('py_cg'), orderly=orderly,
                                                  message_model=model))
        if instance:
            c.set_instance_name(instance)
        c.subscribe(topic, listener, expression)
        c.start()
        self._started.append(c)
        return c

    def close(self):
        errors = []
        while self._started:
            c = self._started.pop()
            try:
                c.shutdown()
            except Exception as e:  # report every failed shutdown, not only the first
                errors.append(repr(e))
        if errors:
            raise AssertionError('shutdown failed: %s' % '; '.join(errors))


class SendFailed(Exception):
    pass


def _check_send(rc, what):
    if rc != 0:
        err = dll.GetLatestErrorMessage()
        raise SendFailed('%s returned %d: %s' % (what, rc, err.decode('utf-8', 'replace') if err else ''))


@QUEUE_SELECTOR_CALLBACK
def _queue_from_arg(size, _msg, arg):
    wanted = ctypes.cast(arg, ctypes.POINTER(ctypes.c_int))
    QueueSender.last_size = size
    return wanted[0] % size


dll.SendMessageOrderly.argtypes = [ctypes.c_void_p, ctypes.c_void_p, QUEUE_SELECTOR_CALLBACK,
                                   ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(_CSendResult)]
dll.SendMessageOrderly.restype = ctypes.c_int


class Sent(object):
    def __init__(self, result, queue):
        self.status = result.sendStatus
        self.msg_id = result.msgId.decode('utf-8')
        self.offset = result.offset
        self.queue = queue


class QueueSender(object):
    """Sends to the queue the caller picks (SendMessageOrderly with a selector callback)."""
    last_size = 0

    def __init__(self, producer):
        self._producer = producer

    def send(self, msg, queue):
        arg = ctypes.c_int(queue)
        res = _CSendResult()
        rc = dll.SendMessageOrderly(self._producer._handle, msg._handle, _queue_from_arg,
                                    ctypes.cast(ctypes.byref(arg), ctypes.c_void_p), 3, ctypes.byref(res))
        _check_send(rc, 'SendMessageOrderly')
        return Sent(res, queue % QueueSender.last_size)

    def queues(self):
        """How many write queues the producer saw in the topic's route at its last send."""
        return QueueSender.last_size
