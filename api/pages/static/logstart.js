// The session log's first script, in the file's head (api/pages/sessionlog.py): a long log's
// verifier worker (logverify.js, `listenAsWorker`) is started here, from a `blob:` of the
// file's own script (the text block before this one), while the browser is still reading the
// lines. Started at the end of the file instead, its start waited on the page's thread —
// which then drew the whole long page (at 110,000 lines, over a second) — and the archive
// waited on it. sessionlog.js hands it the archive once the file is read
// (`kirokuEarlyWorker`: the worker, when it was made, whether it failed).
// A log of at most HERE lines is verified on the page's thread: a worker's start (and its
// cold compile of the verifier) costs more than such a log's whole check
// (docs/performance.md, "Campaign scale in the browser").
(() => {
  const HERE = 2000;
  const source = document.getElementById("kiroku-worker");
  const able = globalThis.crypto?.subtle && typeof DecompressionStream === "function" && typeof Worker === "function";
  if (!able || !(Number(source?.dataset.lines) > HERE)) return;
  try {
    const worker = new Worker(URL.createObjectURL(new Blob([source.textContent], { type: "text/javascript" })));
    const early = { worker, createdAt: performance.now(), failed: false };
    worker.addEventListener("error", (event) => { event.preventDefault(); early.failed = true; });
    globalThis.kirokuEarlyWorker = early;
  } catch {
    // no worker here (sessionlog.js verifies on the page's thread)
  }
})();
