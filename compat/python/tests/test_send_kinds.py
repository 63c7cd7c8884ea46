"""Oneway sends through the C++ client, and a broadcasting group.

Oneway messages (SEND_MESSAGE, no answer awaited) all arrive, each with its
tags and keys. Two consumers of one BROADCASTING group (two client
instances) each get every message sent once they consume every queue.

(The C++ client's batch send is left out: it sends the encoded batch as one
SEND_MESSAGE with the header field batch=1, and the Java brokers 4.9.7 and
5.3.3 store it as a single message whose body is the encoded batch; see
README.md.)
"""
import unittest

from cppclient import Clients, MessageModel, QueueSender, SendStatus, create_topic, message, unique
from received import Received

READY_DEADLINE = 60.0


def await_reading_every_queue(sender, topic, got, consumers):
    """Sends a "ready" message to each queue in rounds until every consumer got one from each.

    A broadcasting consumer keeps its offsets itself and starts a queue it has no offset for at
    the queue's end (CONSUME_FROM_LAST_OFFSET), whenever its rebalance gets to it: what is sent
    before then is not for it. Returns the ready bodies sent.
    """
    sent = []
    rounds = 0
    while True:
        for q in range(max(sender.queues(), 1)):
            body = 'ready %d of queue %d of %s' % (rounds, q, topic)
            sender.send(message(topic, body, 'TagReady'), q)
            sent.append(body)
        rounds += 1

        def reading_all():
            return all(len(set(d.queue_id for d in got.deliveries if d.consumer == c and d.tags == 'TagReady'))
                       >= sender.queues() for c in consumers)
        try:
            got.await_until('ready messages from every queue', reading_all, deadline=1.0)
            return sent
        except AssertionError:
            if rounds * 1.0 >= READY_DEADLINE:
                raise AssertionError('the consumers %s did not read every queue of %s within %.0f s'
                                     % (consumers, topic, READY_DEADLINE))


class SendKindsTest(unittest.TestCase):
    def setUp(self):
        self.clients = Clients()
        self.addCleanup(self.clients.close)

    def created_topic(self, producer, prefix):
        topic = unique(prefix)
        return topic, create_topic(producer, topic)

    def test_oneway_messages_arrive_with_tags_and_keys(self):
        producer = self.clients.producer()
        topic, create = self.created_topic(producer, 'py_kinds')
        got = Received()
        self.clients.push_consumer(topic, '*', got.listener('c1'))

        expect = {create: ('', '')}
        for i in range(6):
            body = 'oneway %d of %s' % (i, topic)
            producer.send_oneway(message(topic, body, 'TagW', 'oneway-%d' % i))
            expect[body] = ('TagW', 'oneway-%d' % i)

        got.await_all(expect)
        got.assert_only(expect)
        for body, d in got.first_by_body().items():
            if body != create:
                self.assertEqual(expect[body], (d.tags, d.keys), 'tags and keys of ' + body)

    def test_every_consumer_of_a_broadcasting_group_gets_every_message(self):
        producer = self.clients.producer()
        topic, create = self.created_topic(producer, 'py_bcast')
        group = unique('py_bcast_cg')
        got = Received()
        for name in ('b1', 'b2'):
            self.clients.push_consumer(topic, '*', got.listener(name), group=group,
                                       model=MessageModel.BROADCASTING, instance=unique(name))
        ready = await_reading_every_queue(QueueSender(producer), topic, got, ('b1', 'b2'))
        bodies = []
        for i in range(8):
            body = 'broadcast %d of %s' % (i, topic)
            self.assertEqual(SendStatus.OK, producer.send_sync(message(topic, body, 'TagX', 'b-%d' % i)).status)
            bodies.append(body)
        for name in ('b1', 'b2'):
            got.await_all(bodies, name)
            got.assert_only(bodies + ready + [create], name)


if __name__ == '__main__':
    unittest.main()
