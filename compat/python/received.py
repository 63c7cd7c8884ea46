"""What the push consumers of a test received, and the waits and checks on it.

A listener copies each message out of the C++ client's callback (the message
handle is valid only inside it) as a Delivery. Waits poll for a condition
under a deadline; nothing here sleeps for a fixed time to stand in for one.
"""
import collections
import threading
import time

from cppclient import ConsumeStatus

DEADLINE = 90.0  # seconds a wait gives the servers before it fails

PROPS = ('UNIQ_KEY', 'TRAN_MSG', 'PGROUP', 'REAL_TOPIC', 'REAL_QID', 'RETRY_TOPIC', 'ORIGIN_MESSAGE_ID')

Delivery = collections.namedtuple('Delivery', [
    'consumer', 'topic', 'body', 'tags', 'keys', 'msg_id', 'queue_id', 'queue_offset',
    'commit_log_offset', 'reconsume_times', 'props', 'thread'])


def _text(b):
    return b.decode('utf-8', 'replace') if b is not None else None


def delivery(consumer, msg, user_props=()):
    props = {}
    for k in PROPS + tuple(user_props):
        v = msg.get_property(k)
        if v:
            props[k] = _text(v)
    return Delivery(consumer, msg.topic, _text(msg.body), _text(msg.tags), _text(msg.keys), msg.id,
                    msg.queue_id, msg.queue_offset, msg.commit_log_offset, msg.reconsume_times, props,
                    threading.get_ident())


class Received(object):
    def __init__(self, user_props=()):
        self._cond = threading.Condition()
        self._user_props = user_props
        self.deliveries = []
        self.violations = []
        self._inside = {}  # (consumer, queue id) -> thread inside an orderly listener

    def _add(self, d):
        with self._cond:
            self.deliveries.append(d)
            self._cond.notify_all()

    def listener(self, consumer, answer=None):
        """A concurrent listener: records, then answers answer(delivery) or CONSUME_SUCCESS."""
        def on_message(msg):
            d = delivery(consumer, msg, self._user_props)
            self._add(d)
            return answer(d) if answer else ConsumeStatus.CONSUME_SUCCESS
        return on_message

    def orderly_listener(self, consumer):
        """An orderly listener that also notes two threads inside it for one queue at once."""
        def on_message(msg):
            key = (consumer, msg.queue_id)
            me = threading.get_ident()
            with self._cond:
                other = self._inside.get(key)
                if other is not None and other != me:
                    self.violations.append('queue %d of %s: threads %d and %d at once' % (key[1], consumer, other, me))
                self._inside[key] = me
            try:
                self._add(delivery(consumer, msg, self._user_props))
            finally:
                with self._cond:
                    self._inside.pop(key, None)
            return ConsumeStatus.CONSUME_SUCCESS
        return on_message

    def of(self, consumer=None):
        with self._cond:
            return [d for d in self.deliveries if consumer is None or d.consumer == consumer]

    def bodies(self, consumer=None):
        return set(d.body for d in self.of(consumer))

    def await_until(self, what, ok, deadline=DEADLINE):
        """Polls ok() (under the lock, woken by each delivery) until it is true or deadline passes."""
        end = time.monotonic() + deadline
        with self._cond:
            while not ok():
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError('%s: not within %.0f s' % (what, deadline))
                self._cond.wait(min(left, 1.0))

    def await_all(self, bodies, consumer=None, deadline=DEADLINE):
        want = set(bodies)

        def arrived():
            return want <= set(d.body for d in self.deliveries if consumer is None or d.consumer == consumer)
        try:
            self.await_until('%d messages to %s' % (len(want), consumer or 'the consumers'), arrived, deadline)
        except AssertionError as e:
            missing = sorted(want - self.bodies(consumer))
            raise AssertionError('%s; %d missing, e.g. %s' % (e, len(missing), missing[:5]))

    def assert_only(self, allowed, consumer=None):
        extra = sorted(self.bodies(consumer) - set(allowed))
        if extra:
            raise AssertionError('%d unexpected messages arrived at %s, e.g. %s' % (
                len(extra), consumer or 'the consumers', extra[:5]))

    def first_by_body(self, consumer=None):
        out = {}
        for d in self.of(consumer):
            out.setdefault(d.body, d)
        return out
