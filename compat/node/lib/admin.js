'use strict';
// Topic set-up and broker look-ups through ali-ons's own remoting client
// (MQClientAPI, the layer its producer and consumer are built on): it creates
// topics with UPDATE_AND_CREATE_TOPIC on the broker, waits until the name
// server routes them (GET_ROUTEINFO_BY_TOPIC), and lists a consumer group's
// clients as the broker sees them (GET_CONSUMER_LIST_BY_GROUP).

const MQClientAPI = require('ali-ons/lib/mq_client_api');
const PermName = require('ali-ons/lib/protocol/perm_name');
const ResponseCode = require('ali-ons/lib/protocol/response_code');
const env = require('./env');
const { eventually } = require('./eventually');
const { httpclient } = require('./clients');

const TIMEOUT_MS = 5000;

class Admin {
  constructor() {
    this.api = new MQClientAPI({ nameSrv: env.namesrvAddr(), httpclient });
    this.api.on('error', err => console.error(`[admin] ${err.name}: ${err.message}`));
  }

  async start() {
    await this.api.ready();
    return this;
  }

  async close() {
    await this.api.close();
  }

  // Creates each topic on the broker with `queues` read and write queues and
  // waits until the name server returns a route with those queues.
  async createTopics(topics, queues = 4) {
    const brokerAddr = env.brokerAddr();
    for (const topicName of topics) {
      await this.api.createTopic(brokerAddr, 'TBW102', {
        topicName,
        readQueueNums: queues,
        writeQueueNums: queues,
        perm: PermName.PERM_READ | PermName.PERM_WRITE,
        topicFilterType: 'SINGLE_TAG',
        topicSysFlag: 0,
        order: false,
      }, TIMEOUT_MS);
    }
    for (const topic of topics) {
      await eventually(`a route with ${queues} queues for ${topic}`, async () => {
        const route = await this.api.getTopicRouteInfoFromNameServer(topic, TIMEOUT_MS);
        return route && route.queueDatas.some(q => q.writeQueueNums === queues && q.readQueueNums === queues);
      });
    }
  }

  // The client ids the broker lists for a consumer group; [] when the broker
  // answers SYSTEM_ERROR "no consumer for this group".
  async consumerIds(group) {
    try {
      return (await this.api.getConsumerIdListByGroup(env.brokerAddr(), group, TIMEOUT_MS)) || [];
    } catch (err) {
      if (err.name === 'MQClientException' && err.code === ResponseCode.SYSTEM_ERROR) {
        return [];
      }
      throw err;
    }
  }
}

async function startAdmin() {
  return new Admin().start();
}

module.exports = { startAdmin };
