// A time-ordered queue of scheduled events (binary min-heap on time, then insertion order), used to drive task
// runs from the sandbox clock: whatever is due by "now" is processed before each request is answered.

interface Entry<T> {
  at: number;
  order: number;
  event: T;
}

export class EventQueue<T> {
  private heap: Entry<T>[] = [];
  private counter = 0;

  push(at: number, event: T): void {
    this.heap.push({ at, order: this.counter++, event });
    this.siftUp(this.heap.length - 1);
  }

  /** Removes and returns the earliest event due at or before `now`. */
  popDue(now: number): { at: number; event: T } | undefined {
    const first = this.heap[0];
    if (!first || first.at > now) return undefined;
    const last = this.heap.pop() as Entry<T>;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.siftDown(0);
    }
    return { at: first.at, event: first.event };
  }

  clear(): void {
    this.heap = [];
  }

  private before(left: Entry<T>, right: Entry<T>): boolean {
    return left.at < right.at || (left.at === right.at && left.order < right.order);
  }

  private siftUp(index: number): void {
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.before(this.heap[index], this.heap[parent])) return;
      [this.heap[index], this.heap[parent]] = [this.heap[parent], this.heap[index]];
      index = parent;
    }
  }

  private siftDown(index: number): void {
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let smallest = index;
      if (left < this.heap.length && this.before(this.heap[left], this.heap[smallest])) smallest = left;
      if (right < this.heap.length && this.before(this.heap[right], this.heap[smallest])) smallest = right;
      if (smallest === index) return;
      [this.heap[index], this.heap[smallest]] = [this.heap[smallest], this.heap[index]];
      index = smallest;
    }
  }
}
