// Stand-ins for everything a table session (site/session.js) uses of the page: a worker whose
// replies the test releases one by one, a clock the test moves, channels that record what
// was sent, a shelf of records in memory.

/** A promise with its resolve at hand. */
export function deferred() {
  let resolve;
  const promise = new Promise((done) => { resolve = done; });
  return { promise, resolve };
}

/** Lets every pending promise callback run. */
export const settle = () => new Promise((resolve) => setImmediate(resolve));

/** The worker's reply envelope (pyengine/shell/reply.py) with ``fields`` over the defaults. */
export function reply(fields = {}) {
  return {
    ok: true, message: null, role: "local", table: null, html: null, status: "",
    delay_ms: 0, hold_ms: 0, outbox: [], save: null, summary: null, title: "", ...fields,
  };
}

/** The worker: every call is recorded and waits until the test answers it; ``answer``
 * (name, args) gives the default reply of calls answered with ``answerAll``. */
export class FakeWorker {
  constructor() {
    this.calls = []; // {name, args, answer(reply), fail(error)}
    this.running = 0;
    this.mostAtOnce = 0;
  }

  call(name, ...args) {
    const waiting = deferred();
    this.running += 1;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
    const entry = {
      name,
      args,
      answer: (value) => waiting.resolve(() => value),
      fail: (error) => waiting.resolve(() => { throw error; }),
    };
    this.calls.push(entry);
    return waiting.promise.then((outcome) => {
      this.running -= 1;
      return outcome();
    });
  }

  names() {
    return this.calls.map((call) => call.name);
  }

  /** The latest call, after letting queued work reach the worker. */
  async last() {
    await settle();
    return this.calls.at(-1);
  }
}

export class FakeClock {
  constructor() {
    this.time = 1000;
    this.timers = new Map(); // id -> {at, run, every}
    this.nextId = 1;
  }

  now() {
    return this.time;
  }

  setTimeout(run, ms) {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, run, every: null });
    return id;
  }

  setInterval(run, ms) {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, run, every: ms });
    return id;
  }

  clearTimeout(id) {
    this.timers.delete(id);
  }

  clearInterval(id) {
    this.timers.delete(id);
  }

  /** Moves time on by ``ms``, running each timer that falls due, in order. */
  async advance(ms) {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, timer]) => timer.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      const [id, timer] = due;
      this.time = timer.at;
      if (timer.every === null) this.timers.delete(id);
      else timer.at += timer.every;
      timer.run();
      await settle();
    }
    this.time = end;
  }
}

export class FakeChannel {
  constructor(path = "direct") {
    this.open = true;
    this.sent = [];
    this.onmessage = null;
    this.onclose = null;
    this.path = path;
    this.onpath = null;
  }

  send(text) {
    if (!this.open) throw new Error("closed");
    this.sent.push(text);
  }

  close() {
    this.open = false;
  }

  /** A text from the far side. */
  receive(text) {
    this.onmessage?.(text);
  }
}

export class FakeShelf {
  constructor(records = []) {
    this.records = new Map(records.map((record) => [record.id, record]));
    this.writes = true; // whether the next writes reach the database
  }

  get(id) {
    return this.records.get(id) ?? null;
  }

  latest(kind, table) {
    return [...this.records.values()].find((record) => record.kind === kind && record.table === table) ?? null;
  }

  put(record) {
    this.records.set(record.id, record);
    return Promise.resolve(this.writes);
  }

  remove(id) {
    this.records.delete(id);
    return Promise.resolve(true);
  }
}

/** storage.js's onScreen, in memory. */
export function fakeOnScreen() {
  const marks = { local: null, shared: null, guestSave: null, replay: null };
  return {
    marks,
    local: () => marks.local,
    setLocal: (id) => { marks.local = id; },
    clearLocal: () => { marks.local = null; },
    shared: () => marks.shared,
    setShared: (marker) => { marks.shared = marker; },
    clearShared: () => { marks.shared = null; },
    leaveShared: () => { if (marks.shared) marks.shared = { ...marks.shared, onScreen: false }; },
    replay: () => marks.replay,
    setReplay: (text) => { marks.replay = text; },
    clearReplay: () => { marks.replay = null; },
    guestSave: () => marks.guestSave,
    setGuestSave: (id) => { marks.guestSave = id; },
  };
}

/** The transports: a host's tab channel that the test opens, a guest's channel to the host. */
export function fakeNet() {
  const net = {
    toHost: new FakeChannel(),
    hostTabs: null, // (peer, channel) => void, once the host listens
    forgotten: [],
    hostBroadcast: (table, onChannel) => {
      net.hostTabs = onChannel;
      return { close() {} };
    },
    joinBroadcast: async () => net.toHost,
    canDerive: () => false,
    hostIdentity: async () => null,
    forgetIdentity: (table) => net.forgotten.push(table),
    relay: async () => { throw new Error("no relays in tests"); },
    invited: new FakeChannel(), // what an invite's accepted reply connects
    createInvite: async () => ({ code: "offer", accept: async () => net.invited, cancel() {} }),
  };
  return net;
}

/** The page a session runs on: every collaborator a fake, and what it was asked recorded. */
export function fakePage(overrides = {}) {
  const worker = new FakeWorker();
  const page = {
    worker,
    painted: [],
    toasts: [],
    busyMarks: [],
    held: 0,
    panelShown: [],
    notices: [],
    call: (name, ...args) => worker.call(name, ...args),
    cardGroups: 0, // how many times a session asked for the worker's card group
    cardGroup: async () => { page.cardGroups += 1; },
    lang: () => "en",
    t: (key, params) => (params ? `${key} ${JSON.stringify(params)}` : key),
    // As the screen's: a dismiss hides its notice only while no other has replaced it.
    toast: (text) => {
      const shown = page.toasts.push(text);
      return () => { if (page.toasts.length === shown) page.toasts.push(null); };
    },
    paint: (value) => page.painted.push(value),
    paintSoon: (value) => page.painted.push(value),
    busy: (on) => page.busyMarks.push(on),
    botSpeed: () => 2,
    shelf: new FakeShelf(),
    onScreen: fakeOnScreen(),
    locks: null,
    saveHeld: () => { page.held += 1; },
    settings: () => ({ useRelays: false, roomsOff: "net.relays_off", relays: [], iceServers: [] }),
    link: (fragment) => `https://example.test/#${fragment}`,
    panel: {
      show: (spec) => page.panelShown.push(spec),
      hide() {},
      notice: (text) => page.notices.push(text),
      warn: (text) => page.notices.push(text),
      showPaths: (paths) => { page.paths = paths; },
    },
    roomsUnreachable: () => { page.roomsUnreachable = true; },
    net: fakeNet(),
    ...overrides,
  };
  return page;
}
