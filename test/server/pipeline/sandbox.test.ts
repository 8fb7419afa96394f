import { describe, expect, it } from 'vitest';
import { createSandbox as createWorkerSandbox } from '../../../server/plugins/sandbox/sandbox.ts';
import { createSandbox, SandboxLimitError, type SandboxHost } from '../../../server/plugins/sandbox/quickjs.ts';

/**
 * The QuickJS sandbox as the delivery engine calls it: many calls at once, each awaiting its own
 * fetch. Calls made in one turn run together and fetch answers are settled together, so these
 * check that every call still gets its own answer, its own error and its own CPU budget.
 */

const noLog: SandboxHost['log'] = () => {};

describe('the plugin sandbox', () => {
  it('gives each of many concurrent calls its own fetch answer and result, in any order of answers', async () => {
    const requests: string[] = [];
    const sandbox = await createSandbox(
      `module.exports.onEvent = async function (event) {
  const res = await fetch('https://example.test/' + event.n, { method: 'POST', body: JSON.stringify(event) })
  return { n: event.n, status: res.status, echoed: (await res.json()).n }
}`,
      {
        log: noLog,
        // answers arrive out of order: larger n first
        fetch: async (url, init) => {
          requests.push(url);
          const n = Number(url.split('/').pop());
          await new Promise((r) => setTimeout(r, 40 - n));
          return { status: 200 + n, body: init.body ?? '' };
        },
      },
    );
    const results = await Promise.all(Array.from({ length: 40 }, (_, n) => sandbox.call('onEvent', [{ n }])));
    expect(results).toEqual(Array.from({ length: 40 }, (_, n) => ({ n, status: 200 + n, echoed: n })));
    expect(requests).toHaveLength(40);
    sandbox.dispose();
  });

  it("reports a plugin's own error, thrown before or after a fetch, to that call only", async () => {
    const sandbox = await createSandbox(
      `module.exports.onEvent = async function (event) {
  if (event.n === 1) throw new TypeError('bad event 1')
  const res = await fetch('https://example.test/x')
  if (event.n === 2) throw new RangeError('after fetch ' + res.status)
  return event.n
}`,
      { log: noLog, fetch: async () => ({ status: 503, body: '' }) },
    );
    const outcomes = await Promise.allSettled([0, 1, 2, 3].map((n) => sandbox.call('onEvent', [{ n }])));
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([
      0,
      'TypeError: bad event 1',
      'RangeError: after fetch 503',
      3,
    ]);
    sandbox.dispose();
  });

  it('a fetch the host refuses is an error the plugin can catch', async () => {
    const sandbox = await createSandbox(
      `module.exports.onEvent = async function () {
  try { await fetch('https://elsewhere.test/') } catch (e) { return 'caught: ' + e.message }
}`,
      {
        log: noLog,
        fetch: async () => {
          throw new Error('fetch to elsewhere.test is not allowed');
        },
      },
    );
    expect(await sandbox.call('onEvent', [{}])).toBe('caught: fetch to elsewhere.test is not allowed');
    sandbox.dispose();
  });

  it('gives every call its own CPU budget: many calls in one turn pass, an endless one is stopped alone', async () => {
    // each call spins for 40 ms: 20 of them together are far past one 250 ms budget
    const sandbox = await createSandbox(
      `module.exports.onEvent = async function (event) {
  const spin = (ms) => { const end = Date.now() + ms; while (Date.now() < end) {} }
  if (event.loop) { while (true) {} }
  spin(40)
  await fetch('https://example.test/')
  spin(40)
  return event.n
}`,
      { log: noLog, fetch: async () => ({ status: 200, body: '' }) },
      { cpuMs: 250, memoryBytes: 32 * 1024 * 1024, wallMs: 15_000 },
    );
    const spinning = Promise.all(Array.from({ length: 20 }, (_, n) => sandbox.call('onEvent', [{ n }])));
    await expect(spinning).resolves.toEqual(Array.from({ length: 20 }, (_, n) => n));
    await expect(sandbox.call('onEvent', [{ loop: true }])).rejects.toThrow(/CPU time limit exceeded/);
    sandbox.dispose();
  });

  it('stops a plugin that allocates without end at its memory limit, many small allocations included', async () => {
    const limits = { cpuMs: 5000, memoryBytes: 16 * 1024 * 1024, wallMs: 15_000 };
    for (const grow of ['a.push(new Uint8Array(1 << 20))', "a.push('x'.repeat(1 << 20) + a.length)"]) {
      const sandbox = await createSandbox(
        `module.exports.onEvent = async function () { const a = []; while (true) ${grow} }`,
        { log: noLog, fetch: async () => ({ status: 200, body: '' }) },
        limits,
      );
      const started = Date.now();
      await expect(sandbox.call('onEvent', [{}])).rejects.toThrow(/Memory limit exceeded/);
      expect(Date.now() - started, grow).toBeLessThan(3000); // the memory limit, not the CPU one
      sandbox.dispose();
    }
  });

  it("a plugin's own error that reads like a limit is its error: the sandbox goes on", async () => {
    const sandbox = await createSandbox(
      `let seen = 0
module.exports.onEvent = async function (event) {
  seen += 1
  if (event.say) throw new Error(event.say)
  return seen
}`,
      { log: noLog, fetch: async () => ({ status: 200, body: '' }) },
    );
    for (const say of ['upload interrupted', 'out of memory']) {
      const error = await sandbox.call('onEvent', [{ say }]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(SandboxLimitError);
      expect((error as Error).message).toBe(`Error: ${say}`);
    }
    expect(await sandbox.call('onEvent', [{}])).toBe(3); // the same sandbox, its state kept
    sandbox.dispose();
  });

  it("an error that copies the engine's own out-of-memory text, or one allocation too large, is not a memory verdict", async () => {
    const sandbox = await createSandbox(
      `let seen = 0
module.exports.onEvent = async function (event) {
  seen += 1
  if (event.fake) throw new InternalError('out of memory')
  if (event.huge) return new Uint8Array(1 << 30).length
  return seen
}`,
      { log: noLog, fetch: async () => ({ status: 200, body: '' }) },
      { cpuMs: 250, memoryBytes: 16 * 1024 * 1024, wallMs: 15_000 },
    );
    for (const event of [{ fake: true }, { huge: true }]) {
      const error = await sandbox.call('onEvent', [event]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(SandboxLimitError);
      expect((error as Error).message).toBe('InternalError: out of memory');
    }
    expect(await sandbox.call('onEvent', [{}])).toBe(3); // the same sandbox, not stopped
    sandbox.dispose();
  });

  it("keeps the protocol out of the plugin's reach: its globals and a replaced JSON change nothing for the host", async () => {
    const sandbox = await createSandbox(
      `JSON.stringify = () => '{not json'
JSON.parse = () => ({})
module.exports.onEvent = async function (event) {
  const res = await fetch('https://example.test/' + event.n)
  return [typeof __out, typeof __take, typeof __run, res.status, event.n]
}`,
      { log: noLog, fetch: async (url) => ({ status: 200 + Number(url.split('/').pop()), body: '' }) },
    );
    expect(await Promise.all([1, 2].map((n) => sandbox.call('onEvent', [{ n }])))).toEqual([
      ['undefined', 'undefined', 'undefined', 201, 1],
      ['undefined', 'undefined', 'undefined', 202, 2],
    ]);
    sandbox.dispose();
  });

  it('in its worker, many calls each under their CPU budget all finish, though together they take longer than one wall time', async () => {
    // 24 calls of 80 ms CPU: about 2 s of work in one sandbox, each call allowed 1.5 s of wall time from its start
    const sandbox = await createWorkerSandbox(
      `module.exports.onEvent = async function (event) {
  const end = Date.now() + 80; while (Date.now() < end) {}
  return event.n
}`,
      { log: noLog, fetch: { hosts: [], policy: {} } },
      { cpuMs: 150, memoryBytes: 16 * 1024 * 1024, wallMs: 1500 },
    );
    const all = await Promise.allSettled(Array.from({ length: 24 }, (_, n) => sandbox.call('onEvent', [{ n }])));
    expect(all.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(
      Array.from({ length: 24 }, (_, n) => n),
    );
    sandbox.dispose();
  });

  it('in its worker, a call that finished beside one stopped by a limit keeps its result', async () => {
    const sandbox = await createWorkerSandbox(
      `module.exports.onEvent = async function (event) {
  if (event.loop) { while (true) {} }
  return 'done ' + event.n
}`,
      { log: noLog, fetch: { hosts: [], policy: {} } },
      { cpuMs: 100, memoryBytes: 16 * 1024 * 1024, wallMs: 5000 },
    );
    const [looping, ...fine] = await Promise.allSettled([
      sandbox.call('onEvent', [{ loop: true }]),
      ...[1, 2, 3].map((n) => sandbox.call('onEvent', [{ n }])),
    ]);
    expect(looping.status === 'rejected' && (looping.reason as Error).message).toMatch(/CPU time limit/);
    expect(fine.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      'done 1',
      'done 2',
      'done 3',
    ]);
    sandbox.dispose();
  });

  it('a call still open when the sandbox is disposed fails instead of hanging', async () => {
    const sandbox = await createSandbox(
      `module.exports.onEvent = async function () { await fetch('https://example.test/') }`,
      {
        log: noLog,
        fetch: () => new Promise(() => {}),
      },
    );
    const open = sandbox.call('onEvent', [{}]);
    await new Promise((r) => setTimeout(r, 20));
    sandbox.dispose();
    await expect(open).rejects.toThrow(/stopped/);
    await expect(sandbox.call('onEvent', [{}])).rejects.toThrow(/stopped/);
  });
});
