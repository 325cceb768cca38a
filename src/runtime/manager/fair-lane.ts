/** The keys of one flow, first in first out. */
interface Flow {
  readonly name: string;
  items: string[];
  head: number;
}

/** Entries a FIFO array may leave behind its head before they are cut off (amortized O(1)). */
const COMPACT_AFTER = 1024;

/**
 * One lane of the work queue, fair across flows (the operator's flow is a key's namespace, as
 * kube-apiserver's API Priority and Fairness shares a priority level by flow): the flows with keys
 * take turns, one key each, and each flow is first in first out. So a namespace that queues
 * hundreds of keys delays another namespace's next key by one key, not by hundreds.
 *
 * Every operation is O(1) amortized: no scan of the flows or keys, no sort.
 */
export class FairLane {
  private readonly flows = new Map<string, Flow>();
  /** The flows with keys, in turn order from `turn` on (a flow that is served goes to the back). */
  private readonly ring: Flow[] = [];
  private turn = 0;
  /** Keys put back at the head of the lane (unshift): served before any flow's turn, last first. */
  private readonly front: string[] = [];
  private count = 0;

  /** The keys in the lane. */
  get size(): number {
    return this.count;
  }

  /** Queues the key at the back of its flow; a flow with no keys before takes the last turn. */
  push(flow: string, key: string): void {
    let f = this.flows.get(flow);
    if (f === undefined) {
      f = { name: flow, items: [], head: 0 };
      this.flows.set(flow, f);
      this.ring.push(f);
    }
    f.items.push(key);
    this.count++;
  }

  /**
   * Puts a key just taken (shift) back at the head of the lane: it goes next, as if it had not been
   * taken. Its flow already moved to the back of the turns when it was taken, and that turn was
   * this key's.
   */
  unshift(key: string): void {
    this.front.push(key);
    this.count++;
  }

  /** The next key: one put back, else the first of the flow whose turn it is; undefined when empty. */
  shift(): string | undefined {
    if (this.count === 0) return undefined;
    this.count--;
    if (this.front.length > 0) return this.front.pop();
    const flow = this.ring[this.turn]!;
    const key = flow.items[flow.head++]!;
    if (flow.head === flow.items.length) {
      // Its last key: the flow leaves the turns (and the map: a namespace keeps nothing once idle).
      this.flows.delete(flow.name);
      this.turn++;
    } else {
      compact(flow);
      // The only flow with keys keeps its turn; another goes to the back of the turns.
      if (this.turn < this.ring.length - 1) {
        this.ring.push(flow);
        this.turn++;
      }
    }
    if (this.turn === this.ring.length) {
      this.ring.length = 0;
      this.turn = 0;
    } else if (this.turn > COMPACT_AFTER && this.turn * 2 > this.ring.length) {
      this.ring.splice(0, this.turn);
      this.turn = 0;
    }
    return key;
  }
}

/** Cuts off a flow's keys already served once they are most of its array. */
function compact(flow: Flow): void {
  if (flow.head > COMPACT_AFTER && flow.head * 2 > flow.items.length) {
    flow.items.splice(0, flow.head);
    flow.head = 0;
  }
}
