// ali-ons 3.12.0, a RocketMQ client nobody here wrote, against `nssim serve` under both profiles.
// A minimal broker written here registers through the served NameServer, listens at the address
// it registers and answers HEART_BEAT (34), SEND_MESSAGE_V2 (310) and UNREGISTER_CLIENT (35)
// with success. What ali-ons sends and expects: shared/notes/ali-ons/README.md.
// Run: NSSIM_EXECUTABLE=build/nssim node tests/serve_node/alions_test.js; it prints one line per
// check and 'N passed, M failed', and exits 1 when a check failed.
'use strict';

const assert = require('node:assert');
const { spawn } = require('node:child_process');
const net = require('node:net');
const { Producer, Message } = require('ali-ons');

const NSSIM = process.env.NSSIM_EXECUTABLE;
assert.ok(NSSIM, 'NSSIM_EXECUTABLE must name the nssim executable');

// ---- remoting frames: 4-byte length, 4-byte header length (serialize type 0), JSON, body ----

function encodeFrame(header, body) {
  const headerBytes = Buffer.from(JSON.stringify(header));
  const bodyBytes = body ? Buffer.from(body) : Buffer.alloc(0);
  const prefix = Buffer.alloc(8);
  prefix.writeUInt32BE(4 + headerBytes.length + bodyBytes.length, 0);
  prefix.writeUInt32BE(headerBytes.length, 4);
  return Buffer.concat([prefix, headerBytes, bodyBytes]);
}

// Calls onFrame(header, body) for each whole frame that arrives on `socket`.
function readFrames(socket, onFrame) {
  let pending = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) {
      const length = pending.readUInt32BE(0);
      const headerLength = pending.readUInt32BE(4) & 0xffffff;
      const header = JSON.parse(pending.subarray(8, 8 + headerLength).toString());
      const body = pending.subarray(8 + headerLength, 4 + length);
      pending = pending.subarray(4 + length);
      onFrame(header, body);
    }
  });
}

// java.util.zip.CRC32, then UtilAll#crc32's top-bit mask (Node 18 has no zlib.crc32).
function bodyCrc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ((crc ^ 0xffffffff) >>> 0) & 0x7fffffff;
}

// One connection that sends requests and matches answers by opaque.
async function connectClient(port) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const waiting = new Map();
  let opaque = 0;
  readFrames(socket, (header, body) => {
    const resolve = waiting.get(header.opaque);
    waiting.delete(header.opaque);
    if (resolve) resolve({ header, body });
  });
  return {
    request(code, extFields, body) {
      const id = ++opaque;
      // A safety net only: a served NameServer answers within milliseconds.
      const answer = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer to request ${code} within 10 s`)), 10000);
        waiting.set(id, (frame) => {
          clearTimeout(timer);
          resolve(frame);
        });
      });
      socket.write(encodeFrame({ code, language: 'JAVA', version: 409, opaque: id, flag: 0, extFields }, body));
      return answer;
    },
    close() {
      socket.destroy();
    },
  };
}

// ---- nssim serve as a child process on a loopback port ----

const servers = new Set(); // every nssim serve started, stopped at the end whatever happened

async function startServe(profile) {
  const child = spawn(NSSIM, ['serve', '--listen', '127.0.0.1:0', '--profile', profile, ...(process.env.NSSIM_SERVE_LOG ? ['--log'] : [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(text);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`nssim serve exited with ${code}: ${text}`)));
  });
  servers.add(child);
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    port,
    address: `127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      assert.strictEqual(await exited, 0, 'nssim serve exits 0 on SIGTERM');
    },
  };
}

// ---- the minimal broker ----

const SEND_MESSAGE_V2 = 310;
const HEART_BEAT = 34;
const UNREGISTER_CLIENT = 35;

async function startBroker(nameServers) {
  const sent = [];
  const accepted = new Set();
  const server = net.createServer((socket) => {
    accepted.add(socket);
    socket.on('close', () => accepted.delete(socket));
    readFrames(socket, (header, body) => {
      const answer = { code: 0, flag: 1, language: 'JAVA', opaque: header.opaque, version: 409, extFields: {} };
      if (header.code === SEND_MESSAGE_V2) {
        const queueId = String(header.extFields.e);
        answer.extFields = { msgId: `7F00000100002A9F${String(sent.length).padStart(16, '0')}`, queueId, queueOffset: String(sent.length) };
        sent.push({ topic: header.extFields.b, queueId, body: body.toString() });
      } else if (header.code !== HEART_BEAT && header.code !== UNREGISTER_CLIENT) {
        answer.code = 3; // REQUEST_CODE_NOT_SUPPORTED
      }
      if ((header.flag & 2) === 0) socket.write(encodeFrame(answer));
    });
    socket.on('error', () => {});
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = `127.0.0.1:${server.address().port}`;
  const identity = { brokerAddr: addr, brokerName: 'broker-a', clusterName: 'DefaultCluster', brokerId: '0' };
  const clients = await Promise.all(nameServers.map((ns) => connectClient(ns.port)));

  const topic = (name, perm) => ({ order: false, perm, readQueueNums: 4, topicFilterType: 'SINGLE_TAG', topicName: name, topicSysFlag: 0, writeQueueNums: 4 });
  const body = Buffer.from(JSON.stringify({
    filterServerList: [],
    topicConfigSerializeWrapper: {
      dataVersion: { counter: 1, timestamp: Date.now() },
      topicConfigTable: { TBW102: topic('TBW102', 7), TopicTest: topic('TopicTest', 6) },
    },
  }));
  for (const client of clients) {
    const { header } = await client.request(103, { ...identity, haServerAddr: addr, bodyCrc32: String(bodyCrc32(body)), compressed: 'false' }, body);
    assert.strictEqual(header.code, 0, `REGISTER_BROKER: ${header.remark}`);
  }
  return {
    addr,
    sent,
    async unregister() {
      for (const client of clients) assert.strictEqual((await client.request(104, identity)).header.code, 0);
    },
    async wipeWritePerm() {
      for (const client of clients) {
        const { header } = await client.request(205, { brokerName: 'broker-a' });
        assert.strictEqual(header.code, 0);
        assert.strictEqual(header.extFields.wipeTopicCount, '2');
      }
    },
    async stop() {
      for (const client of clients) client.close();
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of accepted) socket.destroy(); // ali-ons keeps its channel open
      await closed;
    },
  };
}

// ---- ali-ons ----

const quiet = { info() {}, warn() {}, error() {}, debug() {} };
let instances = 0;

// A fresh producer (its own MQClient, so no route cached from an earlier check).
async function startProducer(nameSrv) {
  const producer = new Producer({
    nameSrv,
    httpclient: {}, // asserted by ali-ons even with nameSrv
    producerGroup: 'PID_NSSIM_SERVE',
    instanceName: `nssim-serve-${process.pid}-${++instances}`,
    logger: quiet,
  });
  producer.on('error', () => {}); // route polls report TOPIC_NOT_EXIST as events
  await producer.ready();
  return producer;
}

async function rejection(promise) {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  assert.fail('expected the send to fail');
}

const checks = [];
const test = (name, check) => checks.push([name, check]);

for (const profile of ['4.9', '5.x']) {
  test(`profile ${profile}: ali-ons fetches the route from nssim serve and sends`, async () => {
    const ns = await startServe(profile);
    const broker = await startBroker([ns]);
    const producer = await startProducer([ns.address]);
    const result = await producer.send(new Message('TopicTest', 'TagA', 'hello nssim'));
    assert.strictEqual(result.sendStatus, 'SEND_OK');
    assert.strictEqual(result.messageQueue.brokerName, 'broker-a');
    assert.deepStrictEqual(broker.sent.map((m) => [m.topic, m.body]), [['TopicTest', 'hello nssim']]);
    await producer.close();
    await broker.stop();
    await ns.stop();
  });

  test(`profile ${profile}: TOPIC_NOT_EXIST surfaces as MQClientException code 17`, async () => {
    const ns = await startServe(profile);
    const broker = await startBroker([ns]);
    const producer = await startProducer([ns.address]);
    const err = await rejection(producer.send(new Message('NoSuchTopic', 'TagA', 'x')));
    assert.strictEqual(err.name, 'MQClientException');
    assert.strictEqual(err.code, 17);
    assert.match(err.message, /No topic route info in name server for the topic: NoSuchTopic/);
    assert.deepStrictEqual(broker.sent, []);
    await producer.close();
    await broker.stop();
    await ns.stop();
  });

  test(`profile ${profile}: after WIPE_WRITE_PERM sends fail for want of a writable queue`, async () => {
    const ns = await startServe(profile);
    const broker = await startBroker([ns]);
    await broker.wipeWritePerm();
    const producer = await startProducer([ns.address]);
    const err = await rejection(producer.send(new Message('TopicTest', 'TagA', 'x')));
    assert.match(err.message, /^Send \[4\] times, still failed, .* BrokersSent: \[\]$/);
    assert.deepStrictEqual(broker.sent, []);
    await producer.close();
    await broker.stop();
    await ns.stop();
  });

  test(`profile ${profile}: after the broker unregisters the route loses it`, async () => {
    const ns = await startServe(profile);
    const broker = await startBroker([ns]);
    const before = await startProducer([ns.address]);
    assert.strictEqual((await before.send(new Message('TopicTest', 'TagA', 'x'))).sendStatus, 'SEND_OK');
    await broker.unregister();
    const after = await startProducer([ns.address]);
    const err = await rejection(after.send(new Message('TopicTest', 'TagA', 'y')));
    assert.strictEqual(err.name, 'MQClientException');
    assert.strictEqual(err.code, 17);
    assert.strictEqual(broker.sent.length, 1);
    await before.close();
    await after.close();
    await broker.stop();
    await ns.stop();
  });

  test(`profile ${profile}: with two NameServers, one stopped, ali-ons fails over`, async () => {
    const live = await startServe(profile);
    const stopped = await startServe(profile);
    const broker = await startBroker([live, stopped]);
    await stopped.stop();
    // ali-ons round-robins from index 1, so its first route call goes to the stopped one.
    const producer = await startProducer([live.address, stopped.address]);
    const result = await producer.send(new Message('TopicTest', 'TagA', 'failover'));
    assert.strictEqual(result.sendStatus, 'SEND_OK');
    assert.deepStrictEqual(broker.sent.map((m) => m.body), ['failover']);
    await producer.close();
    await broker.stop();
    await live.stop();
  });
}

// A runner of its own rather than node:test: ali-ons leaves its hidden CLIENT_INNER_PRODUCER and
// its scheduled tasks running after every producer is closed, so the process is ended here once
// the checks are done.
(async () => {
  let passed = 0;
  let failed = 0;
  for (const [name, check] of checks) {
    try {
      await check();
      passed++;
      console.log(`ok - ${name}`);
    } catch (err) {
      failed++;
      console.log(`not ok - ${name}\n${err && err.stack ? err.stack : err}`);
    }
  }
  for (const child of servers) child.kill('SIGTERM'); // those a failed check left running
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
})();
