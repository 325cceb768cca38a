import { afterEach, describe, expect, it } from "vitest";
import type { ServiceApi } from "../api/index.ts";
import { managedKinds } from "./index.ts";
import { fakeService } from "./real-media-types.testing.ts";

/**
 * Every kind's index listing takes the hrefs a batched read wants (ManagedKind.index.list): the
 * items it does not want are never validated, the wanted ones are, and without `wanted` every
 * item is. The fake index answers every collection with two items no schema accepts (a link
 * without a string rel), so any validation of one fails the listing.
 */

const invalid = (href: string) => ({ name: "x", links: [{ rel: "self", href }, { rel: 7 }] });

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

function service(): ServiceApi {
  const fake = fakeService(() => [invalid("/x/1"), invalid("/x/2")]);
  close = fake.close;
  return fake.api;
}

const SCOPE = "/api/clouds/1";
const indexed = managedKinds.filter((k) => k.index);

describe("index listings with the hrefs a batched read wants", () => {
  it("covers every kind with an index", () => {
    expect(indexed.map((k) => k.kind)).toEqual(managedKinds.map((k) => k.kind));
  });

  for (const kind of indexed) {
    it(`${kind.kind}: unwanted items are not validated, wanted ones are, a whole listing is`, async () => {
      const api = service();
      expect(await kind.index!.list(api, SCOPE, new Set(["/x/9"]))).toEqual([]);
      await expect(kind.index!.list(api, SCOPE, new Set(["/x/2"]))).rejects.toMatchObject({
        message: expect.stringContaining("unexpected representation at [1]"),
      });
      await expect(kind.index!.list(api, SCOPE)).rejects.toMatchObject({
        message: expect.stringContaining("unexpected representation at [0]"),
      });
    });
  }
});
