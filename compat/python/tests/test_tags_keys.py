"""Tags, keys and user properties through the C++ client.

Messages of tags TagA..TagD (and none) go round the topic's queues; a push
consumer subscribed to "TagA || TagC" gets exactly the TagA and TagC ones,
with their keys, tags and properties as sent, while a group subscribed to
"*" gets them all. The last messages, one per queue, are TagC: once the
filtered consumer has them it has read past everything else in its queues,
so "no other arrives" does not hang on waiting long enough.
"""
import unittest

from cppclient import Clients, QueueSender, SendStatus, create_topic, message, unique
from received import Received

TAGS = ('TagA', 'TagB', 'TagC', 'TagD', '')


class TagsAndKeysTest(unittest.TestCase):
    def setUp(self):
        self.clients = Clients()
        self.addCleanup(self.clients.close)

    def send(self, sender, topic, body, tags, keys, queue):
        props = {'u_tag': tags or 'none', 'u_n': str(queue)}
        r = sender.send(message(topic, body, tags, keys, props), queue)
        self.assertEqual(SendStatus.OK, r.status, body)
        return {'body': body, 'tags': tags, 'keys': keys, 'props': props, 'msg_id': r.msg_id, 'queue': r.queue}

    def test_tag_expression_delivers_only_its_tags_with_keys_and_properties(self):
        topic = unique('py_tag')
        producer = self.clients.producer()
        create = create_topic(producer, topic)
        sender = QueueSender(producer)
        sent = [self.send(sender, topic, 'TagZ first of %s' % topic, 'TagZ', 'z-key', 0)]
        queues = sender.queues()
        self.assertGreater(queues, 0, 'queues in the route of %s' % topic)

        got = Received(user_props=('u_tag', 'u_n'))
        self.clients.push_consumer(topic, 'TagA || TagC', got.listener('TagA || TagC'))
        # Its own client instance: a consumer that joins a started one waits for its next rebalance (10 s).
        self.clients.push_consumer(topic, '*', got.listener('*'), instance=unique('all'))

        n = 0
        for i in range(5):
            for tag in TAGS:
                body = 'tag %r %d of %s' % (tag, i, topic)
                sent.append(self.send(sender, topic, body, tag, 'key-%s-%d' % (tag or 'none', i), n))
                n += 1
        for q in range(queues):
            body = 'fence of queue %d of %s' % (q, topic)
            sent.append(self.send(sender, topic, body, 'TagC', 'fence-key', q))

        wanted = [s['body'] for s in sent if s['tags'] in ('TagA', 'TagC')]
        got.await_all(wanted, 'TagA || TagC')
        got.assert_only(wanted, 'TagA || TagC')
        got.await_all([s['body'] for s in sent] + [create], '*')

        by_body = got.first_by_body('TagA || TagC')
        for s in sent:
            if s['body'] not in by_body:
                continue
            d = by_body[s['body']]
            self.assertEqual(topic, d.topic, s['body'])
            self.assertEqual(s['tags'], d.tags, 'tags of ' + s['body'])
            self.assertEqual(s['keys'], d.keys, 'keys of ' + s['body'])
            self.assertEqual(s['msg_id'], d.msg_id, 'msgId of ' + s['body'])
            self.assertEqual(s['queue'], d.queue_id, 'queue of ' + s['body'])
            self.assertEqual(s['props']['u_tag'], d.props.get('u_tag'), 'property u_tag of ' + s['body'])
            self.assertEqual(s['props']['u_n'], d.props.get('u_n'), 'property u_n of ' + s['body'])
            self.assertEqual(s['msg_id'], d.props.get('UNIQ_KEY'), 'UNIQ_KEY of ' + s['body'])


if __name__ == '__main__':
    unittest.main()
