// The table sessions of site/session.js against a fake worker, fake channels and a fake clock:
// one queue, one apply(), and what each kind (this device, hosting, joined) adds.

import assert from "node:assert/strict";
import { test } from "node:test";

import { GamesSession, GuestSession, HostSession, LocalSession, ReplaySession } from "../../site/session.js";
import { replayFragment } from "../../site/net/links.js";
import { FakeChannel, FakeClock, fakeNet, fakePage, reply, settle } from "./fakes.mjs";

const HOST_SAVE = '{"table_id":"T1","v":1}';
const SUMMARY = { game: "perudo", players: ["Ana", "Bea"], over: false };

/** A table on this device with its first screen up (status ``status``). */
async function localTable(page, clock, fields = {}) {
  const session = new LocalSession(page, clock);
  const started = session.submit({ game: "perudo", fields: {} });
  (await page.worker.last()).answer(reply({ html: "<p>1</p>", status: "human", save: '{"seed":"1"}', summary: SUMMARY, ...fields }));
  await started;
  return session;
}

/** A hosted table, arranging seats, with one guest tab's channel open ("bc-a"). */
async function hostedTable(page, clock) {
  const session = new HostSession(page, clock);
  const created = session.submit({ game: "perudo", fields: {} });
  const create = await page.worker.last();
  assert.equal(create.name, "net_host_create");
  create.answer(reply({ role: "host", table: "T1", html: "<p>arrange</p>", status: "arrange", save: HOST_SAVE, summary: SUMMARY }));
  await created;
  const channel = new FakeChannel();
  page.net.hostTabs("a", channel);
  return { session, channel };
}

/** Answers every call as it comes with ``answer(call)`` until one named ``name`` arrives. */
async function answerUntil(worker, name, answer = () => reply({ role: "host", table: "T1" })) {
  for (;;) {
    const call = await worker.last();
    if (call.name === name) return call;
    call.answer(answer(call));
  }
}

test("the worker gets one call at a time, in arrival order: peers' messages and clicks queue up", async () => {
  const page = fakePage();
  const clock = new FakeClock();
  const { session, channel } = await hostedTable(page, clock);
  channel.receive("first");
  channel.receive("second");
  session.act('{"type":"bid"}');
  await settle();
  assert.deepEqual(page.worker.names(), ["net_host_create", "net_host_receive"]);
  for (let i = 0; i < 3; i += 1) (await page.worker.last()).answer(reply({ role: "host", table: "T1" }));
  await settle();
  assert.deepEqual(page.worker.names(), ["net_host_create", "net_host_receive", "net_host_receive", "net_host_act"]);
  assert.equal(page.worker.mostAtOnce, 1);
  const [, first, second, act] = page.worker.calls;
  assert.deepEqual(first.args, ["bc-a", "first", 1000, "en"]); // the peer, its text, the time, the language
  assert.equal(second.args[1], "second");
  assert.deepEqual(act.args, ['{"type":"bid"}', 1000, "en"]);
});

test("a second click while the first is on its way does nothing", async () => {
  const page = fakePage();
  const session = await localTable(page, new FakeClock());
  const first = session.act('{"n":1}');
  assert.equal(await session.act('{"n":2}'), null);
  assert.equal(await session.ui('{"odds":true}'), null);
  (await page.worker.last()).answer(reply({ html: "<p>2</p>", status: "human" }));
  assert.equal((await first).html, "<p>2</p>");
  session.act('{"n":3}');
  await settle();
  assert.deepEqual(page.worker.calls.slice(1).map((call) => call.args[0]), ['{"n":1}', '{"n":3}']);
});

test("a reply paints, saves the table and delivers its outbox to the peers' channels", async () => {
  const page = fakePage();
  const { channel } = await hostedTable(page, new FakeClock());
  const other = new FakeChannel();
  page.net.hostTabs("b", other);
  channel.receive("intent");
  const save = '{"table_id":"T1","v":2}';
  (await page.worker.last()).answer(reply({
    role: "host", table: "T1", html: "<p>moved</p>", status: "human", save, summary: { ...SUMMARY, over: true },
    outbox: [["bc-a", "to a"], ["bc-b", "to b"], ["bc-gone", "to nobody"]],
  }));
  await settle();
  assert.deepEqual(channel.sent, ["to a"]);
  assert.deepEqual(other.sent, ["to b"]);
  assert.equal(page.painted.at(-1).html, "<p>moved</p>");
  assert.deepEqual(page.shelf.get("host:T1"), {
    id: "host:T1", kind: "host", table: "T1", via: null, pin: null, text: save, game: "perudo", players: ["Ana", "Bea"], over: true,
  });
  assert.deepEqual(page.onScreen.marks.shared, { role: "host", table: "T1", room: null, onScreen: true });
});

test("a one-device table keeps a save of its own and marks it on screen; a refusal changes nothing", async () => {
  const page = fakePage();
  const session = await localTable(page, new FakeClock());
  const [record] = page.shelf.records.values();
  assert.match(record.id, /^local:/);
  assert.deepEqual({ ...record, id: null }, { id: null, kind: "local", table: null, text: '{"seed":"1"}', ...SUMMARY });
  assert.equal(page.onScreen.local(), record.id);
  assert.deepEqual(page.toasts, [null]); // a screen of its own clears an old notice
  session.act('{"n":1}');
  (await page.worker.last()).answer(reply({ ok: false, message: "Not your turn" }));
  await settle();
  assert.equal(page.painted.length, 1);
  assert.equal(page.toasts.at(-1), "Not your turn");
  session.act('{"n":2}');
  (await page.worker.last()).answer(reply({ html: "<p>2</p>", status: "human", save: '{"seed":"2"}', summary: SUMMARY }));
  await settle();
  assert.equal(page.shelf.records.size, 1);
  assert.equal(page.shelf.get(record.id).text, '{"seed":"2"}');
});

test("a replay keeps its step for this tab only, never on the shelf, and forgets it when left", async () => {
  const page = fakePage();
  const session = new ReplaySession(page, new FakeClock());
  const opened = session.open("local");
  const open = await page.worker.last();
  assert.deepEqual([open.name, open.args], ["replay_table", ["local", "en"]]);
  assert.equal(page.cardGroups, 1); // a fair card game's record replays its deal with the group
  open.answer(reply({ role: "replay", html: "<p>step 9</p>", status: "replay", save: '{"step":9}', summary: SUMMARY }));
  await opened;
  assert.equal(page.onScreen.replay(), '{"step":9}');
  assert.equal(page.shelf.records.size, 0);
  session.ui('{"step":3}');
  const step = await page.worker.last();
  assert.deepEqual([step.name, step.args], ["replay_ui", ['{"step":3}', "en"]]);
  step.answer(reply({ role: "replay", html: "<p>step 3</p>", status: "replay", save: '{"step":3}', summary: SUMMARY }));
  await settle();
  assert.equal(page.onScreen.replay(), '{"step":3}');
  session.close();
  assert.equal(page.onScreen.replay(), null);
});

test("a replay's share panel is given this page's address, and its record downloads as a file", async () => {
  const files = [];
  const page = fakePage({ download: (name, text) => files.push([name, text]) });
  const session = new ReplaySession(page, new FakeClock());
  const opened = session.openLink("eJxLAQ");
  const open = await page.worker.last();
  assert.deepEqual([open.name, open.args], ["replay_link", ["eJxLAQ", "en"]]);
  open.answer(reply({ role: "replay", html: "<p>9</p>", status: "replay", save: '{"text":"Taberna record 1\\n","step":9}' }));
  await opened;
  session.ui('{"share":true}');
  const share = await page.worker.last();
  assert.deepEqual(share.args, ['{"share":"https://example.test/#replay="}', "en"]);
  share.answer(reply({ role: "replay", html: "<p>share</p>", status: "replay" }));
  await settle();
  session.download("perudo");
  assert.deepEqual(files, [["taberna-perudo.txt", "Taberna record 1\n"]]);
  assert.equal(replayFragment("#replay=eJx_-"), "eJx_-");
  assert.equal(replayFragment("#join=abc"), null);
  assert.equal(replayFragment(""), null);
});

test("a game that ends is kept among your games, which list without their records and replay one", async () => {
  const kept = [];
  const replayed = [];
  const page = fakePage({ replay: (text) => replayed.push(text) });
  page.shelf.keepFinished = (entry, players) => kept.push([entry.id, players]);
  page.shelf.finished = () => [{ id: "finished:1", kind: "finished", text: "Taberna record 1\n", game: "perudo", seats: 2 }];
  page.shelf.records.set("finished:1", page.shelf.finished()[0]);
  await localTable(page, new FakeClock(), { finished: { id: "finished:1", text: "Taberna record 1\n" } });
  assert.deepEqual(kept, [["finished:1", ["Ana", "Bea"]]]);
  const games = new GamesSession(page, new FakeClock());
  const opened = games.open("stats");
  const open = await page.worker.last();
  assert.deepEqual([open.name, open.args], ["games_open", ['[{"id":"finished:1","kind":"finished","game":"perudo","seats":2}]', "stats", "en"]]);
  open.answer(reply({ role: "games", html: "<p>games</p>", status: "stats" }));
  await opened;
  games.ui('{"replay":"finished:1"}');
  assert.deepEqual(replayed, ["Taberna record 1\n"]);
});

test("a failure of the worker itself is said and answered like a refusal", async () => {
  const page = fakePage();
  const session = await localTable(page, new FakeClock());
  const acted = session.act("{}");
  (await page.worker.last()).fail(new Error("worker died"));
  assert.deepEqual(await acted, { ok: false, message: 'game.failed {"reason":"worker died"}' });
  assert.equal(page.toasts.at(-1), 'game.failed {"reason":"worker died"}');
  assert.deepEqual(page.busyMarks.slice(-2), [true, false]);
});

test("bots play after the worker's delay times the player's pace", async () => {
  const page = fakePage();
  const clock = new FakeClock();
  await localTable(page, clock, { status: "bot", delay_ms: 300 });
  await clock.advance(599);
  assert.deepEqual(page.worker.names(), ["start"]);
  await clock.advance(1);
  const step = await page.worker.last();
  assert.deepEqual([step.name, step.args], ["bot_step", ["en"]]);
  step.answer(reply({ html: "<p>your turn</p>", status: "human" }));
  await clock.advance(10_000);
  assert.deepEqual(page.worker.names(), ["start", "bot_step"]);
});

test("instant bots still leave the player a fifth of the time to act out of turn", async () => {
  const page = fakePage({ botSpeed: () => 0 });
  const clock = new FakeClock();
  await localTable(page, clock, { status: "bot", delay_ms: 2500, hold_ms: 2500 });
  await clock.advance(499);
  assert.deepEqual(page.worker.names(), ["start"]);
  await clock.advance(1);
  assert.equal((await page.worker.last()).name, "bot_step");
});

test("a bot's turn that a click ended while it waited in the queue is not asked for", async () => {
  const page = fakePage();
  const clock = new FakeClock();
  const session = await localTable(page, clock, { status: "bot", delay_ms: 100 });
  session.ui('{"undo":true}');
  await clock.advance(200); // the bot's step is queued behind the click
  (await page.worker.last()).answer(reply({ html: "<p>taken back</p>", status: "human" }));
  await settle();
  assert.deepEqual(page.worker.names(), ["start", "ui"]);
  assert.deepEqual(page.toasts.filter(Boolean), []);
});

test("a host whose save failed holds its moves until the player goes on without it", async () => {
  const page = fakePage();
  const clock = new FakeClock();
  page.shelf.writes = false;
  const { session, channel } = await hostedTable(page, clock);
  channel.receive("intent");
  await settle();
  assert.deepEqual(page.worker.names(), ["net_host_create"]);
  assert.equal(page.held, 1);
  assert.ok(session.holdingMoves);
  session.goOnUnsaved();
  const receive = await page.worker.last();
  assert.equal(receive.name, "net_host_receive");
  receive.answer(reply({ role: "host", table: "T1" }));
  channel.receive("again"); // the player chose: no more holding
  assert.equal((await page.worker.last()).args[1], "again");
});

test("a host's held moves go on once a save gets through", async () => {
  const page = fakePage();
  page.shelf.writes = false;
  const { session } = await hostedTable(page, new FakeClock());
  session.command('{"start":true}');
  await settle();
  assert.equal(page.worker.calls.length, 1);
  session.saveRecovered();
  assert.equal((await page.worker.last()).name, "net_host_command");
  assert.equal(session.holdingMoves, false);
});

test("a guest's seat is saved and marked, and its moves go to the host as the worker wrote them", async () => {
  const page = fakePage();
  const clock = new FakeClock();
  const session = new GuestSession(page, clock);
  const joined = session.join({ via: "tab", table: "T1", seat: 1, name: "Bea" });
  const join = await page.worker.last();
  assert.deepEqual([join.name, JSON.parse(join.args[0])], ["net_guest_join", { table: "T1", seat: 1, name: "Bea", room: null, game: null }]);
  const save = '{"table":"T1","seat":1}';
  join.answer(reply({ role: "guest", table: "T1", html: "<p>hello</p>", status: "connecting", save, summary: SUMMARY }));
  await joined;
  assert.deepEqual(page.shelf.get("guest:T1:1"), { id: "guest:T1:1", kind: "guest", table: "T1", via: "tab", pin: null, text: save, ...SUMMARY });
  assert.equal(page.onScreen.guestSave(), "guest:T1:1");
  assert.deepEqual(page.onScreen.marks.shared, { role: "guest", table: "T1", via: "tab", seat: 1, room: null, pin: null, onScreen: true });
  const connected = await page.worker.last();
  assert.equal(connected.name, "net_guest_connected");
  connected.answer(reply({ role: "guest", table: "T1", outbox: [[null, "hello host"]] }));
  session.act('{"type":"bid"}');
  const act = await page.worker.last();
  assert.deepEqual([act.name, act.args], ["net_guest_act", ['{"type":"bid"}', 1000, "en"]]);
  act.answer(reply({ role: "guest", table: "T1", html: "<p>sent</p>", status: "seated", outbox: [[null, "intent"]] }));
  await settle();
  assert.deepEqual(page.net.toHost.sent, ["hello host", "intent"]);
  page.net.toHost.receive("state");
  const received = await page.worker.last();
  assert.deepEqual([received.name, received.args], ["net_guest_receive_all", ['["state"]', 1000, "en"]]);
});

/** A guest at table T1's seat 1 (another tab of this browser), its join answered with
 * ``fields``; the worker has its "connected" call next. */
async function joinedGuest(page, clock, fields = {}) {
  const session = new GuestSession(page, clock);
  const joined = session.join({ via: "tab", table: "T1", seat: 1, name: "Bea" });
  (await page.worker.last()).answer(reply({ role: "guest", table: "T1", status: "connecting", html: "<p></p>", ...fields }));
  await joined;
  return session;
}

/** A fair deal's state of the ``step`` pass whose next step the seats ``owed`` owe. */
const dealState = (step, owed) => JSON.stringify({ kind: "state", view: { fair: { step, owed } } });

/** A guest in seat 1 whose page shows a fair deal's progress (its first news went to the worker). */
async function dealingGuest() {
  const page = fakePage();
  const clock = new FakeClock();
  await joinedGuest(page, clock, { save: '{"table":"T1","seat":1}', summary: SUMMARY });
  (await page.worker.last()).answer(reply({ role: "guest", table: "T1" })); // connected
  const first = [JSON.stringify({ kind: "record" }), dealState("lock", [0])];
  for (const text of first) page.net.toHost.receive(text);
  const shown = await page.worker.last(); // the deal's first news: its progress shows at once
  assert.deepEqual([shown.name, JSON.parse(shown.args[0])], ["net_guest_receive_all", first]);
  shown.answer(reply({ role: "guest", table: "T1" }));
  await settle();
  return { page, clock };
}

test("a fair deal's news for steps this device does not owe waits a moment for more once the deal shows; its own step goes at once", async () => {
  const { page, clock } = await dealingGuest();
  const state = dealState;
  const others = [JSON.stringify({ kind: "record" }), state("lock", [2]), JSON.stringify({ kind: "record" }), state("relock", [3])];
  for (const text of others) page.net.toHost.receive(text);
  await settle();
  assert.equal(page.worker.calls.length, 3); // held
  await clock.advance(299);
  assert.equal(page.worker.calls.length, 3);
  await clock.advance(1);
  const held = await page.worker.last();
  assert.deepEqual([held.name, JSON.parse(held.args[0])], ["net_guest_receive_all", others]);
  held.answer(reply({ role: "guest", table: "T1" }));
  const mine = [JSON.stringify({ kind: "record" }), state("lock", [1])];
  for (const text of mine) page.net.toHost.receive(text);
  assert.deepEqual(JSON.parse((await page.worker.last()).args[0]), mine); // its own step: no wait
  (await page.worker.last()).answer(reply({ role: "guest", table: "T1" }));
  for (const text of [state("release", [1, 2, 3]), state("play", [])]) {
    page.net.toHost.receive(text);
    const call = await page.worker.last();
    assert.deepEqual(JSON.parse(call.args[0]), [text]); // the rest of the deal and the game: at once
    call.answer(reply({ role: "guest", table: "T1" }));
  }
  assert.equal(clock.timers.size, 1); // only the session's clock tick is left
});

test("the host's messages that come while a guest's worker is busy go to it together, in order", async () => {
  const page = fakePage();
  const clock = new FakeClock();
  await joinedGuest(page, clock);
  const connected = await page.worker.last(); // busy: what comes meanwhile waits
  page.net.toHost.receive("record");
  page.net.toHost.receive("state");
  connected.answer(reply({ role: "guest", table: "T1" }));
  const first = await page.worker.last();
  assert.deepEqual([first.name, first.args], ["net_guest_receive_all", ['["record","state"]', 1000, "en"]]);
  for (let i = 0; i < 70; i += 1) page.net.toHost.receive(`s${i}`); // while the worker is busy
  first.answer(reply({ role: "guest", table: "T1" }));
  const second = await page.worker.last();
  assert.deepEqual(JSON.parse(second.args[0]), Array.from({ length: 64 }, (_, i) => `s${i}`)); // at most 64 a call
  second.answer(reply({ role: "guest", table: "T1" }));
  assert.deepEqual(JSON.parse((await page.worker.last()).args[0]), ["s64", "s65", "s66", "s67", "s68", "s69"]);
  assert.equal(page.worker.mostAtOnce, 1);
});

test("a phrase tap goes to the worker as the screen wrote it, with the time: the page makes no message", async () => {
  const page = fakePage();
  const clock = new FakeClock();
  const { session } = await hostedTable(page, clock);
  session.phrase('{"say":"dudo"}');
  const call = await answerUntil(page.worker, "net_host_phrase");
  assert.deepEqual(call.args, ['{"say":"dudo"}', clock.now(), "en"]);
});

test("a guest whose channel closes says so to the worker and looks for the host tab again", async () => {
  const page = fakePage();
  const clock = new FakeClock();
  const session = await joinedGuest(page, clock);
  (await page.worker.last()).answer(reply({ role: "guest", table: "T1" })); // connected
  const lost = page.net.toHost;
  page.net.toHost = new FakeChannel();
  lost.onclose();
  const dropped = await page.worker.last();
  assert.equal(dropped.name, "net_guest_dropped");
  dropped.answer(reply({ role: "guest", table: "T1" }));
  assert.equal((await page.worker.last()).name, "net_guest_connected"); // on the new channel
  assert.equal(session.channel, page.net.toHost);
});

test("a guest comes back to its saved seat at the same table", async () => {
  const page = fakePage();
  const save = '{"table":"T1","seat":2}';
  page.shelf.put({ id: "guest:T1:2", kind: "guest", table: "T1", text: save });
  const session = new GuestSession(page, new FakeClock());
  session.join({ via: "tab", table: "T1", seat: null, name: "" });
  const resume = await page.worker.last();
  assert.deepEqual([resume.name, resume.args[0]], ["net_guest_resume", save]);
});

test("shared tables tell the worker the time every second, once they have a table", async () => {
  const page = fakePage();
  const clock = new FakeClock();
  const idle = new HostSession(page, clock);
  await clock.advance(3000);
  assert.equal(page.worker.calls.length, 0); // no table yet
  idle.close();
  await hostedTable(page, clock);
  await clock.advance(1000);
  const tick = await page.worker.last();
  assert.deepEqual([tick.name, tick.args], ["net_host_tick", [5000, "en"]]);
});

test("a flooding guest is cut off after the worker's error has told it why", async () => {
  const page = fakePage();
  const clock = new FakeClock();
  const { session, channel } = await hostedTable(page, clock);
  for (let i = 0; i < 40 + 200; i += 1) channel.receive(`m${i}`); // the burst, then the strikes
  assert.equal(channel.onmessage, null);
  const kick = await answerUntil(page.worker, "net_host_kick");
  assert.deepEqual(kick.args, ["bc-a", "flooded", 1000, "en"]);
  assert.equal(page.worker.names().filter((name) => name === "net_host_receive").length, 40);
  assert.ok(channel.open);
  kick.answer(reply({ role: "host", table: "T1", outbox: [["bc-a", '{"kind":"error"}']] }));
  await settle();
  assert.deepEqual(channel.sent, ['{"kind":"error"}']);
  assert.equal(channel.open, false);
  assert.equal(session.channels.has("bc-a"), false);
  assert.deepEqual(page.notices, ["friends.cut_off"]); // and the host is told
});

/** A hosted table whose guest "bc-a" holds a seat, with ``count`` more peers' channels open
 * ("bc-s0", "bc-s1", ...: spectators, or anyone with the room code). */
async function seatedAndStrangers(page, clock, count) {
  const { session, channel } = await hostedTable(page, clock);
  channel.receive('{"kind":"join","seat":1}');
  (await page.worker.last()).answer(reply({ role: "host", table: "T1", seated: ["bc-a"] }));
  await settle();
  const strangers = Array.from({ length: count }, (_, i) => {
    const stranger = new FakeChannel();
    page.net.hostTabs(`s${i}`, stranger);
    return stranger;
  });
  return { session, channel, strangers };
}

/** Answers every call as it comes, each with the seated guest named, until none is left;
 * returns the peers' texts that reached the worker, as [peer, text] (a batch's in order). */
async function drain(worker) {
  const answered = new Set(worker.calls.slice(0, -1));
  for (;;) {
    const call = await worker.last();
    if (answered.has(call)) break;
    answered.add(call);
    call.answer(reply({ role: "host", table: "T1", seated: ["bc-a"] }));
  }
  return worker.calls.flatMap((call) => {
    if (call.name === "net_host_receive") return [call.args.slice(0, 2)];
    return call.name === "net_host_receive_all" ? JSON.parse(call.args[0]) : [];
  });
}

test("seated guests' messages that come while the worker is busy go to it together, in order", async () => {
  const page = fakePage();
  const clock = new FakeClock();
  const { session, channel } = await seatedAndStrangers(page, clock, 0);
  const other = new FakeChannel();
  page.net.hostTabs("b", other);
  session.seated.add("bc-b");
  channel.receive("k1");
  other.receive("k2");
  const first = await page.worker.last();
  assert.deepEqual([first.name, JSON.parse(first.args[0])], ["net_host_receive_all", [["bc-a", "k1"], ["bc-b", "k2"]]]);
  other.receive("k3"); // while the worker is busy
  channel.receive("k4");
  first.answer(reply({ role: "host", table: "T1", seated: ["bc-a", "bc-b"] }));
  const second = await page.worker.last();
  assert.deepEqual(JSON.parse(second.args[0]), [["bc-b", "k3"], ["bc-a", "k4"]]);
  assert.deepEqual(second.args.slice(1), [1000, "en"]);
  assert.equal(page.worker.mostAtOnce, 1);
});

test("peers without a seat share one budget and one queue; a seated guest is never held behind them", async () => {
  const page = fakePage();
  const clock = new FakeClock();
  const { channel, strangers } = await seatedAndStrangers(page, clock, 12);
  for (const stranger of strangers) for (let i = 0; i < 18; i += 1) stranger.receive(`{"kind":"ping","t":${i}}`);
  for (let i = 0; i < 10; i += 1) channel.receive(`{"kind":"intent","seq":${i}}`);
  const received = await drain(page.worker);
  assert.equal(received.filter(([peer]) => peer === "bc-a").length, 1 + 10); // its join, then every intent
  assert.equal(received.filter(([peer]) => peer !== "bc-a").length, 40); // 12 x 18 sent, one budget of 40
});

test("a message that claims a seat passes however much the others sent", async () => {
  const page = fakePage();
  const clock = new FakeClock();
  const { strangers } = await seatedAndStrangers(page, clock, 3);
  for (const stranger of strangers) for (let i = 0; i < 20; i += 1) stranger.receive(`{"kind":"ping","t":${i}}`);
  strangers[2].receive('{"kind":"rejoin","seat":2,"token":"x"}');
  const texts = (await drain(page.worker)).map(([, text]) => text);
  assert.equal(texts.length, 1 + 40 + 1); // the seated guest's join, the budget of 40, the claim
  assert.equal(texts.at(-1), '{"kind":"rejoin","seat":2,"token":"x"}');
});

test("at most 24 channels without a seat are kept: the oldest goes, a seated guest's stays", async () => {
  const page = fakePage();
  const clock = new FakeClock();
  const { session, channel, strangers } = await seatedAndStrangers(page, clock, 25);
  assert.equal(strangers[0].open, false);
  assert.ok(strangers.slice(1).every((stranger) => stranger.open));
  assert.ok(channel.open);
  assert.equal(session.channels.size, 25);
  assert.equal(session.channels.has("bc-s0"), false);
});

test("a table its host closes is forgotten: no save, no marker, no key", async () => {
  const page = fakePage();
  const { session } = await hostedTable(page, new FakeClock());
  session.command('{"close":true}');
  (await page.worker.last()).answer(reply({ role: "host", table: "T1", html: "<p>closed</p>", status: "closed" }));
  await settle();
  assert.equal(page.shelf.get("host:T1"), null);
  assert.equal(page.onScreen.shared(), null);
  assert.deepEqual(page.net.forgotten, ["T1"]);
});

test("a session left behind stops: no ticks, no bots, and a late reply is not shown", async () => {
  const page = fakePage();
  const clock = new FakeClock();
  const { session, channel } = await hostedTable(page, clock);
  channel.receive("intent");
  const late = await page.worker.last();
  session.close();
  late.answer(reply({ role: "host", table: "T1", html: "<p>late</p>", status: "bot", outbox: [["bc-a", "late"]] }));
  await clock.advance(10_000);
  assert.deepEqual(page.worker.names(), ["net_host_create", "net_host_receive"]);
  assert.equal(page.painted.length, 1);
  assert.equal(channel.open, false);
  assert.deepEqual(page.onScreen.marks.shared.onScreen, false); // resumable from the lobby, not on reload
});

test("a session made without a clock keeps the real time", () => {
  const session = new HostSession(fakePage());
  assert.ok(Math.abs(session.timed()[0] - Date.now()) < 1000);
  session.close();
});

test("a hosted table whose save does not restore is forgotten when the player starts afresh", async () => {
  const page = fakePage();
  page.shelf.put({ id: "host:T9", kind: "host", table: "T9", text: "{damaged" });
  const session = new HostSession(page, new FakeClock());
  const resumed = session.resume({ role: "host", table: "T9" });
  const resume = await page.worker.last();
  assert.deepEqual([resume.name, resume.args[0]], ["net_host_resume", "{damaged"]);
  resume.answer(reply({ ok: false, role: "host", message: "The save is damaged" }));
  assert.equal((await resumed).ok, false);
  session.close(true);
  assert.equal(page.shelf.get("host:T9"), null);
});

test("a guest who cannot sit down again forgets the saved seat it tried", async () => {
  const page = fakePage();
  page.shelf.put({ id: "guest:T1:2", kind: "guest", table: "T1", text: '{"table":"T1","seat":2}' });
  const session = new GuestSession(page, new FakeClock());
  const joined = session.join({ via: "tab", table: "T1", seat: null, name: "" });
  (await page.worker.last()).answer(reply({ ok: false, role: "guest", message: "damaged" }));
  (await page.worker.last()).answer(reply({ ok: false, role: "guest", message: "table full" }));
  assert.equal((await joined).message, "table full");
  assert.deepEqual(page.worker.names(), ["net_guest_resume", "net_guest_join"]);
  session.close(true);
  assert.equal(page.shelf.get("guest:T1:2"), null);
});

/** A hosted table where a friend has just come in by invite: "Your friend is connected." shows. */
async function friendByInvite(page, clock) {
  const { session } = await hostedTable(page, clock);
  await session.invite(1);
  await page.panelShown.at(-1).reply(" answer ");
  assert.equal(page.toasts.at(-1), "friends.connected");
  return session;
}

test("a friend who leaves takes the host's \"connected\" notice away with it", async () => {
  const page = fakePage();
  await friendByInvite(page, new FakeClock());
  page.net.invited.onclose();
  assert.equal(page.toasts.at(-1), null);
});

test("a friend who leaves after another notice replaced \"connected\" leaves that notice be", async () => {
  const page = fakePage();
  await friendByInvite(page, new FakeClock());
  page.toast("saves.open_elsewhere");
  page.net.invited.onclose();
  assert.equal(page.toasts.at(-1), "saves.open_elsewhere");
});

test("the table says which way its texts go, for the host's guests and for a guest", async () => {
  const page = fakePage();
  const { session } = await hostedTable(page, new FakeClock());
  assert.deepEqual(page.paths, ["direct"]); // the fake's tab channel
  const overBrokers = new FakeChannel("brokers");
  session.addChannel("broker-1", overBrokers);
  assert.deepEqual(page.paths, ["direct", "brokers"]);
  overBrokers.onclose();
  assert.deepEqual(page.paths, ["direct"]);

  const guestPage = fakePage();
  const guest = new GuestSession(guestPage, new FakeClock());
  const channel = new FakeChannel();
  guest.attach(channel);
  assert.deepEqual(guestPage.paths, ["direct"]);
  channel.path = "turn"; // found out once ICE has picked its pair
  channel.onpath();
  assert.deepEqual(guestPage.paths, ["turn"]);
  channel.onclose();
  assert.deepEqual(guestPage.paths, []);
});

test("a host that reaches no broker offers no room code and says why until dismissed", async () => {
  const unreachable = Object.assign(new Error("No relay server could be reached."), { key: "net.relay_unreachable" });
  const net = {
    ...fakeNet(),
    canDerive: () => true,
    newRoom: async () => ({ code: "ROOMCODE1234", table: "T1" }),
    hostIdentity: async () => ({ publicKey: "k", fingerprint: "f" }),
    relay: async () => ({ hostRoom: async () => { throw unreachable; } }),
  };
  const page = fakePage({ net, settings: () => ({ useRelays: true, relays: [], iceServers: [] }) });
  const session = new HostSession(page, new FakeClock());
  const created = session.submit({ game: "perudo", fields: {} });
  (await page.worker.last()).answer(reply({
    role: "host", table: "T1", html: "<p>arrange</p>", status: "arrange", save: '{"table_id":"T1","room":"ROOMCODE1234"}', summary: SUMMARY,
  }));
  await created;
  await settle();
  assert.equal(page.roomsUnreachable, true);
  assert.deepEqual(page.notices, ['friends.relay_failed {"reason":"net.relay_unreachable"}']);
  assert.deepEqual(page.toasts, []); // not a notice that goes by itself
});

test("the host's invite link names the game and the host as the worker's latest reply said", async () => {
  const page = fakePage();
  const session = new HostSession(page, new FakeClock());
  const created = session.submit({ game: "perudo", fields: {} });
  const about = { game: "perudo", host: "Ana" };
  (await page.worker.last()).answer(reply({ role: "host", table: "T1", html: "<p>arrange</p>", status: "arrange", save: HOST_SAVE, summary: SUMMARY, about }));
  await created;
  const refused = session.command('{"start":true}');
  (await page.worker.last()).answer(reply({ ok: false, role: "host", table: "T1", message: "seats open" })); // names nothing
  await refused;
  await session.invite(1);
  assert.match(page.panelShown.at(-1).link, /^https:\/\/example\.test\/#join=T1\.1\.-\.[^&]+&game=perudo&host=Ana$/);
});

test("a shared table installs the card group before its first call; a failure is said, the worker never called", async () => {
  const page = fakePage();
  const { session } = await hostedTable(page, new FakeClock());
  session.tick();
  await answerUntil(page.worker, "net_host_tick");
  assert.equal(page.cardGroups, 1); // asked once, before net_host_create; kept for the calls after it
  const guestPage = fakePage({ cardGroup: async () => { throw new Error("offline"); } });
  const guest = new GuestSession(guestPage, new FakeClock());
  const reply = await guest.join({ via: "tab", table: "T1", name: "Bea" });
  assert.equal(reply.ok, false);
  assert.equal(reply.message, 'game.failed {"reason":"game.cards_unavailable"}');
  assert.deepEqual(guestPage.worker.names(), []);
});


test("a full batch of held news goes before the news that comes after it", async () => {
  const { page } = await dealingGuest();
  const held = Array.from({ length: 64 }, (_, n) => dealState("lock", [n % 2 ? 2 : 3]));
  for (const text of held) page.net.toHost.receive(text);
  const own = dealState("relock", [1]);
  page.net.toHost.receive(own);
  const first = await page.worker.last(); // the full batch went as the next one came
  assert.deepEqual(JSON.parse(first.args[0]), held);
  first.answer(reply({ role: "guest", table: "T1" }));
  await settle();
  assert.deepEqual(JSON.parse((await page.worker.last()).args[0]), [own]);
});
