"""Transactional messages through the C++ client's TransactionMQProducer.

The local transaction answers COMMIT (delivered once), ROLLBACK (never
delivered), or UNKNOWN, and then the broker's check-back (a
CHECK_TRANSACTION_STATE request to the producer, every second here after the
6 s transaction timeout) gets ROLLBACK (never delivered) or COMMIT
(delivered). Only the UNKNOWN ones are checked. "Never delivered" is read
once both check-backs were answered and the check-committed message, sent
last, arrived: the broker checks its half messages in the order they came.
"""
import threading
import unittest

from cppclient import Clients, SendStatus, TransactionStatus, create_topic, message, unique
from received import Received

COMMIT, ROLLBACK, CHECK_ROLLBACK, CHECK_COMMIT = 'COMMIT', 'ROLLBACK', 'CHECK_ROLLBACK', 'CHECK_COMMIT'
LOCAL = {COMMIT: TransactionStatus.COMMIT, ROLLBACK: TransactionStatus.ROLLBACK,
         CHECK_ROLLBACK: TransactionStatus.UNKNOWN, CHECK_COMMIT: TransactionStatus.UNKNOWN}
CHECKED = {CHECK_ROLLBACK: TransactionStatus.ROLLBACK, CHECK_COMMIT: TransactionStatus.COMMIT}


def _text(b):
    return b.decode('utf-8', 'replace') if b is not None else None


class Listener(object):
    """The local transaction and the check-back, both answering from the message's 'outcome'."""

    def __init__(self):
        self.lock = threading.Lock()
        self.executed = []
        self.checks = []  # (outcome, body, transaction id, UNIQ_KEY)

    def execute(self, msg, _user_args):
        outcome = _text(msg.get_property('outcome'))
        with self.lock:
            self.executed.append(outcome)
        return LOCAL[outcome]

    def check(self, msg):
        outcome = _text(msg.get_property('outcome'))
        with self.lock:
            self.checks.append((outcome, _text(msg.body), msg.id, _text(msg.get_property('UNIQ_KEY'))))
        return CHECKED.get(outcome, TransactionStatus.UNKNOWN)

    def checked(self, outcome):
        with self.lock:
            return [c for c in self.checks if c[0] == outcome]


class TransactionTest(unittest.TestCase):
    def setUp(self):
        self.clients = Clients()
        self.addCleanup(self.clients.close)

    def test_commit_once_rollback_never_and_unknown_as_the_check_back_answers(self):
        topic = unique('py_tx')
        create = create_topic(self.clients.producer(), topic)
        got = Received(user_props=('outcome',))
        self.clients.push_consumer(topic, '*', got.listener('c1'))

        listener = Listener()
        group = unique('py_txpg')
        producer = self.clients.transaction_producer(listener.check, group)
        body_of, msg_id_of = {}, {}
        # The check-committed one last: its delivery means every earlier one was decided.
        for outcome in (COMMIT, ROLLBACK, CHECK_ROLLBACK, CHECK_COMMIT):
            body = 'tx %s of %s' % (outcome, topic)
            m = message(topic, body, 'TagT', 'key-' + outcome, {'outcome': outcome})
            r = producer.send_message_in_transaction(m, listener.execute)
            self.assertEqual(SendStatus.OK, r.status, body)
            body_of[outcome], msg_id_of[outcome] = body, r.msg_id
        self.assertEqual([COMMIT, ROLLBACK, CHECK_ROLLBACK, CHECK_COMMIT], listener.executed)

        committed = [body_of[COMMIT], body_of[CHECK_COMMIT]]
        got.await_all(committed)
        got.await_until('both UNKNOWN transactions checked',
                        lambda: listener.checked(CHECK_ROLLBACK) and listener.checked(CHECK_COMMIT))
        got.assert_only(committed + [create])
        self.assertEqual(1, len([d for d in got.of() if d.body == body_of[COMMIT]]), 'deliveries of the committed one')
        self.assertEqual([], listener.checked(COMMIT), 'a committed transaction was checked')
        self.assertEqual([], listener.checked(ROLLBACK), 'a rolled back transaction was checked')

        for outcome in (CHECK_ROLLBACK, CHECK_COMMIT):
            _, body, _, uniq = listener.checked(outcome)[0]
            self.assertEqual(body_of[outcome], body, 'body of the check-back for ' + outcome)
            self.assertEqual(msg_id_of[outcome], uniq, 'UNIQ_KEY of the check-back for ' + outcome)
        firsts = got.first_by_body()
        for outcome in (COMMIT, CHECK_COMMIT):
            d = firsts[body_of[outcome]]
            self.assertEqual('TagT', d.tags, 'tags of ' + d.body)
            self.assertEqual('key-' + outcome, d.keys, 'keys of ' + d.body)
            self.assertEqual(outcome, d.props.get('outcome'), 'property outcome of ' + d.body)
            self.assertEqual(msg_id_of[outcome], d.msg_id, 'msgId of ' + d.body)
            self.assertEqual('true', d.props.get('TRAN_MSG'), 'TRAN_MSG of %s: %s' % (d.body, d.props))
            self.assertEqual(group, d.props.get('PGROUP'), 'PGROUP of ' + d.body)


if __name__ == '__main__':
    unittest.main()
