'use strict';
// ali-ons producers and push consumers as a Node service starts them (several
// per process, sharing ali-ons's per-process client instance), pointed at the
// name server under test, with the records of what each consumer received,
// and closeAll() that closes every one of them at the end of a test file.
//
// ali-ons asserts that an `httpclient` is given, but it only uses it to fetch
// the name server list from Aliyun's address service (`onsAddr`); with
// `nameSrv` set it never calls it. The stub below fails loudly if it ever is.

const util = require('node:util');
const { Producer, Consumer } = require('ali-ons');
const env = require('./env');

const httpclient = {
  async request(url) {
    throw new Error(`ali-ons asked for ${url}: nameSrv should have kept it off HTTP`);
  },
};

// Shorter periods than ali-ons's 30 s defaults, as the Java suite shortens
// rebalancing: route refresh, heartbeats, rebalance and offset commits every
// second or two, so a closed client's timers end soon after close().
const COMMON = {
  httpclient,
  logger: quietLogger(),
  pollNameServerInteval: 2000,
  heartbeatBrokerInterval: 2000,
  rebalanceInterval: 2000,
  persistConsumerOffsetInterval: 1000,
};

const open = [];

// ali-ons's logger (warn and error to the console) without three expected
// messages: the groups' %RETRY% topics have no route yet (the brokers create
// them at the first heartbeat and route them at their next registration with
// the name server); a producer's first route replaces its empty one; and the
// 5.x broker answers a new group's QUERY_CONSUMER_OFFSET with QUERY_NOT_FOUND
// (4.9.7 answers 0), which ali-ons reports and then treats as "no offset":
// the consumers read from the first offset either way.
const EXPECTED_NOISE = [
  /readOffset failed, .* type: READ_FROM_STORE Not found, V3_0_6_SNAPSHOT maybe this group consumer boot first/,
  /No topic route info in name server for the topic: %RETRY%/,
  /get Topic \[%RETRY%[^\]]*\] RouteInfoFromNameServer is not exist/,
  /but the topic\[%RETRY%[^\]]*\] not exist/,
  /updateTopicPublishInfo\(\) prev is not null/,
];

// NODE_COMPAT_VERBOSE=1 shows them too.
function isNoise(args) {
  if (process.env.NODE_COMPAT_VERBOSE) {
    return false;
  }
  const text = args.map(a => (a instanceof Error ? a.message : a)).map(a => (typeof a === 'string' ? a : util.inspect(a)));
  const line = util.format(...text);
  return EXPECTED_NOISE.some(re => re.test(line));
}

function quietLogger() {
  return {
    info() {},
    debug() {},
    warn(...args) {
      if (!isNoise(args)) console.warn(...args);
    },
    error(...args) {
      if (!isNoise(args)) console.error(...args);
    },
  };
}

function logErrors(name, client) {
  client.on('error', err => {
    if (!isNoise([ err ])) {
      console.error(`[${name}] ${err.name}: ${err.message}`);
    }
  });
}

async function producer(group, options = {}) {
  const p = new Producer({ ...COMMON, nameSrv: env.namesrvAddr(), producerGroup: group, ...options });
  logErrors(`producer ${group}`, p);
  open.push(p);
  await p.ready();
  return p;
}

// A push consumer that reads every queue from its first offset (the topics
// are new, so nothing sent after start-up can be skipped) and records what
// its handler receives for `topic` under `expression` (a tag expression).
async function consumer(group, topic, expression, options = {}) {
  const c = new Consumer({
    ...COMMON,
    nameSrv: env.namesrvAddr(),
    consumerGroup: group,
    consumeFromWhere: 'CONSUME_FROM_FIRST_OFFSET',
    ...options,
  });
  logErrors(`consumer ${group}`, c);
  open.push(c);
  const received = new Received();
  c.subscribe(topic, expression, received.handler);
  await c.ready();
  return { consumer: c, received };
}

// What one consumer's handler was given, in the order it was given.
class Received {
  constructor() {
    this.records = [];
    this.handler = async msg => {
      this.records.push({
        topic: msg.topic,
        tags: msg.tags,
        keys: msg.keys,
        body: msg.body.toString(),
        queueId: msg.queueId,
        queueOffset: Number(String(msg.queueOffset)),
        properties: { ...msg.properties },
        msgId: msg.msgId,
      });
    };
  }

  get size() {
    return this.records.length;
  }

  bodies() {
    return this.records.map(r => r.body);
  }
}

// Closes one producer or consumer before the end of its test.
async function close(client) {
  const i = open.indexOf(client);
  if (i >= 0) {
    open.splice(i, 1);
  }
  await client.close();
}

// Closes the consumers, then the producers, then ali-ons's process-wide inner
// producer (which every producer and consumer starts and nothing else stops).
async function closeAll() {
  const errors = [];
  const clients = open.splice(0).sort((a, b) => (a instanceof Consumer ? 0 : 1) - (b instanceof Consumer ? 0 : 1));
  for (const client of clients) {
    await client.close().catch(err => errors.push(err));
  }
  if (Producer.defaultProducer) {
    await Producer.defaultProducer.close().catch(err => errors.push(err));
    Producer.defaultProducer = null;
  }
  if (errors.length) {
    throw errors[0];
  }
}

module.exports = { httpclient, producer, consumer, close, closeAll, Received };
