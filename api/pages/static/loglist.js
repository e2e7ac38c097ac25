// The table's log list, windowed: the events are kept as data (the loaded ones, in seq order);
// the DOM holds only a window of at most WINDOW lines around what is on screen. Tab filters and
// search run on the data; a live line appends in O(1) (the DOM is brought up to date once a
// frame, not once a line); scrolling moves the window, and past the oldest loaded line asks
// for older ones (`loadOlder`). So the page's cost grows with what is on screen, not with the
// length of the game.
const WINDOW = 300; // lines in the DOM at most
const FRESH = 100; // lines drawn when the window starts afresh (a filter, the first page)
const STEP = 100; // lines added or dropped at an edge as the reader scrolls
const EDGE = 400; // px from an edge that moves the window
const BOTTOM = 80; // px from the bottom that counts as "following the live end"

export class LogList {
  constructor(box, { render, passes, loadOlder }) {
    this.box = box;
    this.render = render; // event → <li>
    this.passes = passes; // event → shown under the current filter?
    this.loadOlder = loadOlder; // seq of the oldest loaded → older events (in order), or []
    this.events = []; // loaded events: events[i] has seq first + i
    this.first = 1;
    this.shown = []; // seqs that pass the filter, ascending
    this.from = 0; // the window: shown[from .. to) are in the DOM
    this.to = 0;
    this.nodes = new Map(); // seq → its <li>, for the lines in the window
    this.pinned = true; // following the live end
    this.frame = 0;
    this.loading = null;
    this.onFlush = null;
    box.addEventListener("scroll", () => this.onScroll(), { passive: true });
  }

  get lastSeq() { return this.events.length ? this.first + this.events.length - 1 : this.first - 1; }
  get size() { return this.events.length; }

  get(seq) { return this.events[seq - this.first]; }

  // The first event loaded: older ones come later, on the way up.
  startAt(seq) { if (!this.events.length) this.first = seq; }

  append(event) {
    if (!this.events.length) this.first = event.seq;
    this.events.push(event);
    if (this.passes(event)) this.shown.push(event.seq);
    this.schedule();
  }

  // A changed event (a reveal made it readable): its line is redrawn if it is in the window.
  replace(event) {
    const index = event.seq - this.first;
    if (index < 0 || index >= this.events.length) return null;
    this.events[index] = event;
    const old = this.nodes.get(event.seq);
    if (!old) return null;
    const item = this.render(event);
    old.replaceWith(item);
    this.nodes.set(event.seq, item);
    return item;
  }

  // The filter changed: recompute what passes (data only), show its live end.
  refilter() {
    this.shown = [];
    for (const event of this.events) if (this.passes(event)) this.shown.push(event.seq);
    this.clear();
    this.pinned = true;
    this.flush();
  }

  clear() {
    this.box.replaceChildren();
    this.nodes.clear();
    this.from = this.to = this.shown.length;
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.flush(); });
  }

  flush() {
    if (this.pinned) this.showEnd();
    this.onFlush?.();
  }

  item(seq) {
    const item = this.render(this.get(seq));
    this.nodes.set(seq, item);
    return item;
  }

  drop(seq) {
    this.nodes.get(seq)?.remove();
    this.nodes.delete(seq);
  }

  // The window at the live end, the list scrolled to its bottom.
  showEnd() {
    const to = this.shown.length;
    let from;
    if (this.from === this.to || to - this.to > WINDOW) { // empty, or far behind: afresh
      this.clear();
      from = Math.max(0, to - FRESH);
      this.box.append(...this.shown.slice(from, to).map((seq) => this.item(seq)));
    } else {
      from = Math.max(this.from, to - WINDOW);
      for (const seq of this.shown.slice(this.from, from)) this.drop(seq);
      this.box.append(...this.shown.slice(this.to, to).map((seq) => this.item(seq)));
    }
    this.from = from;
    this.to = to;
    this.box.scrollTop = this.box.scrollHeight;
  }

  onScroll() {
    const box = this.box;
    const below = box.scrollHeight - box.scrollTop - box.clientHeight;
    // At the bottom is following the live end, even when lines arrived since the last frame
    // (a scroll event that lands between an append and its frame must not unpin the list).
    this.pinned = below < BOTTOM;
    if (this.pinned && this.to < this.shown.length) this.schedule();
    if (box.scrollTop < EDGE) this.moveUp();
    else if (below < EDGE && this.to < this.shown.length) this.moveDown();
  }

  // Lines above the window into it (older ones loaded first if none are left), the bottom
  // trimmed; the lines on screen stay where they are.
  async moveUp() {
    if (this.from === 0) {
      if (this.first <= 1 || this.loading) return;
      this.loading = this.loadOlder(this.first);
      let older = [];
      try { older = await this.loading; } finally { this.loading = null; }
      if (!older.length || older[older.length - 1].seq !== this.first - 1) return;
      const passing = older.filter((e) => this.passes(e)).map((e) => e.seq);
      this.events = older.concat(this.events);
      this.first = older[0].seq;
      this.shown = passing.concat(this.shown);
      this.from += passing.length;
      this.to += passing.length;
      if (!passing.length) { this.moveUp(); return; }
    }
    const from = Math.max(0, this.from - STEP);
    const box = this.box;
    const before = box.scrollHeight;
    box.prepend(...this.shown.slice(from, this.from).map((seq) => this.item(seq)));
    box.scrollTop += box.scrollHeight - before;
    this.from = from;
    const to = Math.min(this.to, from + WINDOW);
    for (const seq of this.shown.slice(to, this.to)) this.drop(seq);
    this.to = to;
  }

  moveDown() {
    const to = Math.min(this.shown.length, this.to + STEP);
    this.box.append(...this.shown.slice(this.to, to).map((seq) => this.item(seq)));
    this.to = to;
    const from = Math.max(this.from, to - WINDOW);
    const box = this.box;
    const before = box.scrollHeight;
    for (const seq of this.shown.slice(this.from, from)) this.drop(seq);
    box.scrollTop -= before - box.scrollHeight;
    this.from = from;
  }

  // Bring a loaded line into the window and onto the screen (a `#seq-N` link).
  reveal(seq) {
    const at = this.shown.indexOf(seq);
    if (at < 0) return false;
    if (at < this.from || at >= this.to) {
      this.clear();
      this.from = Math.max(0, at - WINDOW / 2);
      this.to = Math.min(this.shown.length, this.from + WINDOW);
      this.box.append(...this.shown.slice(this.from, this.to).map((s) => this.item(s)));
      this.pinned = false;
    }
    this.nodes.get(seq)?.scrollIntoView({ block: "center" });
    return true;
  }
}
