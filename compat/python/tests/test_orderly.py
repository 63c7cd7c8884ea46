"""Orderly sends and an orderly push consumer through the C++ client.

An orderly producer sends the steps of several orders with the order id as
sharding key (SendMessageOrderlyByShardingKey: one queue per key); an
orderly push consumer (which locks its queues on the broker) gets every
step, each order's steps from one queue and in the order they were sent,
queue offsets rising per queue, and never two threads inside the listener
for one queue at once.
"""
import unittest

from cppclient import Clients, SendStatus, create_topic, message, unique
from received import Received

ORDERS = ('order-1', 'order-2', 'order-3', 'order-4', 'order-5')
STEPS = 8


class OrderlyTest(unittest.TestCase):
    def setUp(self):
        self.clients = Clients()
        self.addCleanup(self.clients.close)

    def test_orderly_consumer_gets_each_sharding_key_in_send_order_from_one_queue(self):
        topic = unique('py_order')
        producer = self.clients.producer(orderly=True)
        create = create_topic(producer, topic)

        got = Received(user_props=('u_order', 'u_step'))
        self.clients.push_consumer(topic, '*', got.orderly_listener('orderly'), orderly=True)

        bodies = [create]
        for step in range(STEPS):
            for order in ORDERS:
                body = '%s step %d of %s' % (order, step, topic)
                m = message(topic, body, 'TagO', order, {'u_order': order, 'u_step': str(step)})
                r = producer.send_orderly_with_sharding_key(m, order)
                self.assertEqual(SendStatus.OK, r.status, body)
                bodies.append(body)

        got.await_all(bodies)
        got.assert_only(bodies)
        self.assertEqual([], got.violations, 'two threads in the orderly listener for one queue')

        firsts = []
        seen = set()
        for d in got.of():
            if d.body not in seen:
                seen.add(d.body)
                firsts.append(d)
        for order in ORDERS:
            steps = [d for d in firsts if d.props.get('u_order') == order]
            self.assertEqual(list(range(STEPS)), [int(d.props['u_step']) for d in steps],
                             'steps of %s in delivery order' % order)
            self.assertEqual(1, len(set(d.queue_id for d in steps)), 'queues of %s' % order)
        by_queue = {}
        for d in firsts:
            by_queue.setdefault(d.queue_id, []).append(d.queue_offset)
        for q, offsets in by_queue.items():
            self.assertEqual(sorted(offsets), offsets, 'offsets of queue %d in delivery order' % q)


if __name__ == '__main__':
    unittest.main()
