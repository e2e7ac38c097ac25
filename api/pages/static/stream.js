// The live log: EventSource over the caller's stream, resumed by seq. Each event is handed on
// once, in order: a repeated seq is dropped, and a gap is filled from /events before going on.
import { get } from "./api.js";

export class LiveLog {
  // `after`: the seq to start after (the table opens on the latest lines).
  constructor(gameId, { eventTypes, onEvent, onState, after = 0 }) {
    this.gameId = gameId;
    this.eventTypes = eventTypes; // each message is typed (`event: DiceRolled`)
    this.onEvent = onEvent;
    this.onState = onState;
    this.lastSeq = after;
    this.catchingUp = false;
    this.source = null;
    this.retryTimer = null;
    addEventListener("online", () => this.connect());
    addEventListener("offline", () => this.setState("offline"));
  }

  setState(state) { this.onState?.(state); }

  // Everything after lastSeq from the log itself, page by page.
  async catchUp() {
    this.catchingUp = true;
    try {
      for (;;) {
        const page = await get(`/games/${this.gameId}/events?after=${this.lastSeq}&limit=1000`);
        for (const event of page.events) this.accept(event);
        if (!page.events.length || this.lastSeq >= page.last_seq) return;
      }
    } finally {
      this.catchingUp = false;
    }
  }

  accept(event) {
    if (event.seq <= this.lastSeq) return; // seen already: a resumed stream may repeat
    if (event.seq !== this.lastSeq + 1) return "gap";
    this.lastSeq = event.seq;
    this.onEvent(event);
  }

  async connect() {
    clearTimeout(this.retryTimer);
    this.source?.close();
    this.setState("connecting");
    try {
      await this.catchUp();
    } catch {
      this.scheduleRetry();
      return;
    }
    const source = new EventSource(`/games/${this.gameId}/stream?after=${this.lastSeq}`);
    this.source = source;
    source.onopen = () => this.setState("live");
    source.onmessage = (message) => this.receive(message);
    for (const type of this.eventTypes) {
      source.addEventListener(type, (message) => this.receive(message));
    }
    source.onerror = () => {
      // EventSource retries by itself while it can; once it gives up, start again here.
      this.setState(navigator.onLine ? "reconnecting" : "offline");
      if (source.readyState === EventSource.CLOSED) this.scheduleRetry();
    };
  }

  receive(message) {
    const event = JSON.parse(message.data);
    if (this.accept(event) === "gap") this.catchUp().catch(() => this.scheduleRetry());
  }

  scheduleRetry() {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), 2000);
  }
}
