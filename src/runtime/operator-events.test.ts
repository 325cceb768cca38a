import { describe, expect, it } from "vitest";
import { FakeKube } from "./fake-kube.ts";
import type { ManagedObject } from "./kind.ts";
import { InformerEvents } from "./operator-events.ts";
import { OwnerIndex } from "./owners.ts";
import type { WorkQueue } from "./queue.ts";
import { accountKey, ReferenceIndex } from "./references.ts";
import { SiblingIndex } from "./siblings.ts";

const account = (ready: "True" | "False", reason: string): ManagedObject => ({
  metadata: { name: "default", namespace: "a", generation: 1 },
  spec: {},
  status: { conditions: [{ type: "Ready", status: ready, reason, message: "", lastTransitionTime: "" }] },
});

describe("InformerEvents on an Account's Ready", () => {
  function setup() {
    const refs = new ReferenceIndex();
    refs.set("Deployment/a/web", [accountKey("a", "default")]);
    refs.set("Network/a/main", [accountKey("a", "default")]);
    const queued: string[] = [];
    const events = new InformerEvents({
      kinds: [],
      store: new FakeKube(),
      refs,
      owners: new OwnerIndex(),
      siblings: new SiblingIndex(),
      accounts: { checkAhead: () => {}, parkIfPending: () => false },
      queue: () => ({ add: (key: string) => queued.push(key) }) as unknown as WorkQueue,
      checkAhead: () => false,
    });
    return { events, queued };
  }

  it("wakes its resources when its credentials stop working, so they say so at once", () => {
    const { events, queued } = setup();
    events.updated("Account", account("False", "CredentialsInvalid"), account("True", "Available"));
    expect(queued.sort()).toEqual(["Deployment/a/web", "Network/a/main"]);
  });

  it("wakes them when it turns Ready, and not for a status write that changes nothing of that", () => {
    const { events, queued } = setup();
    events.updated("Account", account("True", "Available"), account("False", "CredentialsInvalid"));
    expect(queued.sort()).toEqual(["Deployment/a/web", "Network/a/main"]);
    queued.length = 0;
    events.updated("Account", account("False", "SecretNotFound"), account("False", "CredentialsInvalid"));
    expect(queued).toEqual([]);
  });
});
