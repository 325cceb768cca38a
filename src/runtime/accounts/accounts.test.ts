import pino from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { ReferenceIndex } from "../indexes/index.ts";
import type { AccountKind } from "../sdk/index.ts";
import { ACCOUNT_DELETING, credentialsRefused, Reason, secretProblem } from "../sdk/index.ts";
import { ProblemLog } from "../telemetry/index.ts";
import { FakeClock, FakeKube, memoryLog } from "../testing/index.ts";
import { AccountController } from "./accounts.ts";
import { RETIRED_CLIENT_GRACE_MS } from "./retired-clients.ts";

const NS = "team-a";

/** An Account kind whose clients count their checks; a token the service refuses fails them. */
class Service {
  checks = 0;
  closed = 0;
  /** The tokens of the clients closed, in order. */
  closedTokens: string[] = [];
  refused = new Set<string>();
  /** Holds every check until released: a check "in flight" while the test does something else. */
  gate: Promise<void> = Promise.resolve();
}

function accountKind(
  service: Service,
): AccountKind<{ secretRef: { name: string } }, string, { token: string }> {
  return {
    schema: z.object({ secretRef: z.object({ name: z.string() }) }),
    async credentials(spec, readSecret) {
      const data = await readSecret(spec.secretRef.name);
      if (!data?.token) throw secretProblem(Reason.SecretNotFound, `Secret ${spec.secretRef.name} not found`);
      return data.token;
    },
    connect: (_spec, token) => ({ token }),
    async verify(client) {
      service.checks++;
      await service.gate;
      if (service.refused.has(client.token)) throw credentialsRefused("the token was refused");
      return { host: "us-3.example" };
    },
    async close(client) {
      service.closed++;
      service.closedTokens.push(client.token);
    },
  };
}

let kube: FakeKube;
let service: Service;
let accounts: AccountController;
let woken: string[];
let clock: FakeClock;

beforeEach(() => {
  kube = new FakeKube();
  service = new Service();
  woken = [];
  clock = new FakeClock();
  accounts = new AccountController(accountKind(service) as AccountKind<unknown, unknown, unknown>, {
    store: kube,
    kube,
    refs: new ReferenceIndex(),
    events: { emit: () => {} },
    clock,
    log: pino({ level: "silent" }),
    resyncMs: 60_000,
    onVerified: (key) => woken.push(key),
  });
  kube.secrets.set(`${NS}/creds`, { token: "t1" });
  kube.put("Account", {
    metadata: { name: "default", namespace: NS },
    spec: { secretRef: { name: "creds" } },
  });
});

const ready = () =>
  kube.get("Account", NS, "default")?.status?.conditions?.find((c) => c.type === "Ready")?.status;

describe("AccountController.checkAhead", () => {
  it("the reconcile that follows takes the check started ahead: one check, the same client", async () => {
    let release!: () => void;
    service.gate = new Promise((r) => {
      release = r;
    });
    accounts.checkAhead(NS, "default");
    await new Promise((r) => setTimeout(r, 0));
    expect(service.checks).toBe(1);
    expect(accounts.get(NS, "default")).toMatchObject({ pending: true });
    const reconciled = accounts.reconcile(NS, "default");
    release();
    expect(await reconciled).toMatchObject({ outcome: "ready" });
    expect(service.checks).toBe(1);
    expect(service.closed).toBe(0);
    expect(ready()).toBe("True");
    expect(accounts.get(NS, "default")).toEqual({ client: { token: "t1" } });
    expect(woken).toEqual([`Account/${NS}/default`]);
  });

  it("a check ahead that fails is reported by the reconcile, and the next reconcile checks again", async () => {
    service.refused.add("t1");
    accounts.checkAhead(NS, "default");
    const first = await accounts.reconcile(NS, "default");
    expect(first.outcome).not.toBe("ready");
    expect(ready()).toBe("False");
    expect(service.checks).toBe(1);
    service.refused.clear();
    await accounts.reconcile(NS, "default");
    expect(service.checks).toBe(2);
    expect(ready()).toBe("True");
  });

  it("the Account changed since the check ahead: its client is closed and the new spec is checked", async () => {
    kube.secrets.set(`${NS}/other`, { token: "t2" });
    accounts.checkAhead(NS, "default");
    const o = kube.get("Account", NS, "default")!;
    kube.put("Account", { ...o, spec: { secretRef: { name: "other" } } });
    await accounts.reconcile(NS, "default");
    expect(service.checks).toBe(2);
    expect(service.closed).toBe(1);
    expect(accounts.get(NS, "default")).toEqual({ client: { token: "t2" } });
  });

  it("takes the check ahead's Secret read too; a Secret changed in that moment is read by the next reconcile", async () => {
    let reads = 0;
    const read = kube.readSecret.bind(kube);
    kube.readSecret = (ns, name) => {
      reads++;
      return read(ns, name);
    };
    accounts.checkAhead(NS, "default");
    kube.secrets.set(`${NS}/creds`, { token: "t2" });
    await accounts.reconcile(NS, "default");
    expect(reads).toBe(1);
    expect(accounts.get(NS, "default")).toEqual({ client: { token: "t1" } });
    await accounts.reconcile(NS, "default");
    expect(reads).toBe(2);
    expect(service.closed).toBe(0); // retired (see below)
    expect(accounts.get(NS, "default")).toEqual({ client: { token: "t2" } });
  });

  it("a missing Secret: the check ahead does nothing, the reconcile reports it", async () => {
    kube.secrets.clear();
    accounts.checkAhead(NS, "default");
    await accounts.reconcile(NS, "default");
    expect(service.checks).toBe(0);
    expect(
      kube.get("Account", NS, "default")?.status?.conditions?.find((c) => c.type === "Ready"),
    ).toMatchObject({ status: "False", reason: "SecretNotFound" });
  });

  it("an Account deleted before its reconcile: the client checked ahead is closed", async () => {
    accounts.checkAhead(NS, "default");
    kube.objects.clear();
    await accounts.reconcile(NS, "default");
    expect(service.closed).toBe(1);
  });
});

describe("AccountController: serving deletes", () => {
  it("a client that worked keeps serving deletes when a later check fails; writes wait", async () => {
    await accounts.reconcile(NS, "default");
    kube.secrets.clear();
    await accounts.reconcile(NS, "default");
    expect(ready()).toBe("False");
    expect(accounts.get(NS, "default")).toMatchObject({ notReady: expect.stringContaining("not found") });
    expect(accounts.get(NS, "default", "delete")).toEqual({ client: { token: "t1" } });
    expect(service.closed).toBe(0);
  });

  it("an Account being deleted serves only deletes, and goes once nothing uses it", async () => {
    await accounts.reconcile(NS, "default");
    kube.delete("Account", NS, "default");
    expect(accounts.get(NS, "default")).toEqual({ notReady: ACCOUNT_DELETING });
    expect(accounts.get(NS, "default", "delete")).toEqual({ client: { token: "t1" } });
    await accounts.reconcile(NS, "default");
    expect(kube.get("Account", NS, "default")).toBeUndefined();
    expect(service.closed).toBe(1);
  });

  it("an Account being deleted keeps its client until its resources' audit lines are written", async () => {
    let written!: () => void;
    const asked: string[] = [];
    const controller = new AccountController(accountKind(service) as AccountKind<unknown, unknown, unknown>, {
      store: kube,
      kube,
      refs: new ReferenceIndex(),
      events: { emit: () => {} },
      clock,
      log: pino({ level: "silent" }),
      resyncMs: 60_000,
      auditSettled: (namespace, name) => {
        asked.push(`${namespace}/${name}`);
        return new Promise((resolve) => {
          written = resolve;
        });
      },
    });
    await controller.reconcile(NS, "default");
    kube.delete("Account", NS, "default");
    const deleting = controller.reconcile(NS, "default");
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toEqual([`${NS}/default`]);
    expect(kube.get("Account", NS, "default")).toBeDefined();
    expect(controller.get(NS, "default", "delete")).toEqual({ client: { token: "t1" } });
    expect(service.closed).toBe(0);
    written();
    await deleting;
    expect(kube.get("Account", NS, "default")).toBeUndefined();
    expect(service.closed).toBe(1);
  });

  it("no client and no Secret: dependents are told why, with how long it has lasted", async () => {
    kube.secrets.clear();
    await accounts.reconcile(NS, "default");
    clock.advance(10_000);
    expect(accounts.get(NS, "default", "delete")).toEqual({
      notReady: "Secret creds not found",
      reason: "SecretNotFound",
      failingForMs: 10_000,
    });
  });
});

describe("AccountController: an Account that stays unready", () => {
  it("is logged once when it starts and once when it clears, with what to do, not at each check", async () => {
    const { log, lines } = memoryLog("info");
    const problems = new ProblemLog({ log, clock, gatherMs: 0 });
    const unreachable = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    let down = true;
    const kind = accountKind(service);
    const controller = new AccountController(
      {
        ...kind,
        verify: async (client: { token: string }) => {
          if (down) throw unreachable;
          return kind.verify(client);
        },
      } as AccountKind<unknown, unknown, unknown>,
      {
        store: kube,
        kube,
        refs: new ReferenceIndex(),
        events: { emit: () => {} },
        clock,
        log,
        resyncMs: 60_000,
        problems,
        explain: (error, endpoint) =>
          error === unreachable
            ? { cause: "refused", transient: false, message: `nothing accepts connections at ${endpoint}` }
            : undefined,
      },
    );
    kube.put("Account", {
      metadata: { name: "default", namespace: NS },
      spec: { secretRef: { name: "creds" }, endpoint: "https://svc.example" },
    });
    for (let i = 0; i < 10; i++) await controller.reconcile(NS, "default");
    expect(lines.map((l) => l.msg)).toEqual([
      `Account ${NS}/default is not ready (ApiError): nothing accepts connections at https://svc.example`,
    ]);
    expect(controller.get(NS, "default")).toMatchObject({
      notReady: "nothing accepts connections at https://svc.example",
    });
    down = false;
    await controller.reconcile(NS, "default");
    expect(lines.at(-1)!.msg).toMatch(
      new RegExp(`^resolved: Account ${NS}/default works again \\(after 10 failed attempts`),
    );
    // Refused credentials say what to do besides.
    service.refused.add("t1");
    await controller.reconcile(NS, "default");
    expect(lines.at(-1)!.msg).toMatch(
      /\(CredentialsInvalid\): the token was refused; put working credentials in the Secret/,
    );
  });
});

describe("AccountController: a new client when the spec or the Secret changes", () => {
  /** The Account checked with t1, a reconcile holding its client, then the Secret changed to t2 and checked. */
  async function secretChanged() {
    await accounts.reconcile(NS, "default");
    const held = accounts.get(NS, "default");
    kube.secrets.set(`${NS}/creds`, { token: "t2" });
    await accounts.reconcile(NS, "default");
    return held;
  }
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it("retires the old client: a reconcile that holds it goes on with it until the grace period ends", async () => {
    const held = await secretChanged();
    expect(held).toEqual({ client: { token: "t1" } });
    expect(accounts.get(NS, "default")).toEqual({ client: { token: "t2" } });
    expect(service.closedTokens).toEqual([]);
    expect(accounts.footprint()["accounts.retired"]?.entries).toBe(1);
    clock.advance(RETIRED_CLIENT_GRACE_MS - 1);
    await settle();
    expect(service.closedTokens).toEqual([]);
    clock.advance(1);
    await settle();
    expect(service.closedTokens).toEqual(["t1"]);
    expect(accounts.footprint()["accounts.retired"]?.entries).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it("a Secret changed to refused credentials retires the working client too (it no longer serves writes)", async () => {
    service.refused.add("t2");
    const held = await secretChanged();
    expect(ready()).toBe("False");
    expect(held).toEqual({ client: { token: "t1" } });
    expect(accounts.get(NS, "default")).toMatchObject({ reason: Reason.CredentialsInvalid });
    expect(service.closedTokens).toEqual([]);
    clock.advance(RETIRED_CLIENT_GRACE_MS);
    await settle();
    expect(service.closedTokens).toEqual(["t1"]);
  });

  it("close() (operator shutdown) closes every retired client at once, each once, and leaves no timer", async () => {
    await secretChanged();
    kube.secrets.set(`${NS}/creds`, { token: "t3" });
    await accounts.reconcile(NS, "default");
    expect(accounts.footprint()["accounts.retired"]?.entries).toBe(2);
    await accounts.close();
    expect(service.closedTokens.sort()).toEqual(["t1", "t2", "t3"]);
    expect(clock.pending).toBe(0);
    clock.advance(RETIRED_CLIENT_GRACE_MS);
    await settle();
    expect(service.closed).toBe(3);
  });
});

describe("AccountController: CredentialsValid", () => {
  /** A controller as a new operator process has it, recording the reasons of its Events. */
  const process = (reasons: string[]) =>
    new AccountController(accountKind(service) as AccountKind<unknown, unknown, unknown>, {
      store: kube,
      kube,
      refs: new ReferenceIndex(),
      events: { emit: (_obj, _kind, _type, reason) => reasons.push(reason) },
      clock,
      log: pino({ level: "silent" }),
      resyncMs: 60_000,
      onVerified: (key) => woken.push(key),
    });

  it("an operator restart that finds the credentials working as Ready says: no Event, dependents woken", async () => {
    const reasons: string[] = [];
    await process(reasons).reconcile(NS, "default");
    expect(reasons).toEqual(["CredentialsValid"]);
    const restarted: string[] = [];
    woken = [];
    expect(await process(restarted).reconcile(NS, "default")).toMatchObject({ outcome: "ready" });
    expect(restarted).toEqual([]);
    expect(woken).toEqual([`Account/${NS}/default`]);
  });

  it("new credentials, working again after failing, or a spec not checked yet: an Event each", async () => {
    await process([]).reconcile(NS, "default");
    const reasons: string[] = [];
    const controller = process(reasons);
    await controller.reconcile(NS, "default");
    kube.secrets.set(`${NS}/creds`, { token: "t2" });
    await controller.reconcile(NS, "default");
    expect(reasons).toEqual(["CredentialsValid"]);
    service.refused.add("t2");
    await controller.reconcile(NS, "default");
    service.refused.clear();
    await controller.reconcile(NS, "default");
    expect(reasons.at(-1)).toBe("CredentialsValid");
    const changed: string[] = [];
    const o = kube.get("Account", NS, "default")!;
    kube.put("Account", { ...o, spec: { secretRef: { name: "creds" }, note: 1 } });
    await process(changed).reconcile(NS, "default");
    expect(changed).toEqual(["CredentialsValid"]);
  });
});
