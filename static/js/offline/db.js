// The outbox in IndexedDB: what this phone sent to a match while it had no network, in order, each
// with its write key; the match's facts as the server last confirmed them; and notes for the player
// (a likely duplicate). IndexedDB outlives a closed tab and a closed browser.

const NAME = "scorekeeper-outbox";
const ENTRIES = "entries";  // {key, match, seq, path, kind, number, fields, state, …}
const FACTS = "facts";      // {match, version, file}: the match file as the server last answered it
const NOTES = "notes";      // {key, match, kind: "duplicate", number, of}

let opened = null;

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function open() {
  opened ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(NAME, 1);
    req.onupgradeneeded = () => {
      const db = req.result;
      db.createObjectStore(ENTRIES, { keyPath: "key" }).createIndex("match", "match");
      db.createObjectStore(FACTS, { keyPath: "match" });
      db.createObjectStore(NOTES, { keyPath: "key" }).createIndex("match", "match");
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  return opened;
}

async function store(name, mode = "readonly") {
  const db = await open();
  return db.transaction(name, mode).objectStore(name);
}

/** A write waiting to be sent (or refused, or in conflict), stored before anything else happens. */
export async function putEntry(entry) {
  await request((await store(ENTRIES, "readwrite")).put(entry));
  markPending(entry.match, true);
}

/** The match's entries in the order they were made. */
export async function entriesOf(match) {
  const all = await request((await store(ENTRIES)).index("match").getAll(match));
  return all.sort((a, b) => a.seq - b.seq);
}

export async function removeEntry(entry) {
  await request((await store(ENTRIES, "readwrite")).delete(entry.key));
  const left = await entriesOf(entry.match);
  const notes = await notesOf(entry.match);
  markPending(entry.match, left.length + notes.length > 0);
}

export async function factsOf(match) {
  return (await request((await store(FACTS)).get(match))) || null;
}

export async function putFacts(match, version, file) {
  const known = await factsOf(match);
  if (known && known.version > version) return;  // an older answer arriving late
  await request((await store(FACTS, "readwrite")).put({ match, version, file }));
}

export async function notesOf(match) {
  return request((await store(NOTES)).index("match").getAll(match));
}

export async function putNote(note) {
  await request((await store(NOTES, "readwrite")).put(note));
  markPending(note.match, true);
}

export async function removeNote(note) {
  await request((await store(NOTES, "readwrite")).delete(note.key));
  const left = (await entriesOf(note.match)).length + (await notesOf(note.match)).length;
  markPending(note.match, left > 0);
}

// A word in localStorage that the match has something kept, so that app.js loads this module at once.
function markPending(match, pending) {
  try {
    if (pending) localStorage.setItem(`outbox:${match}`, "1");
    else localStorage.removeItem(`outbox:${match}`);
  } catch { /* no storage: the module loads when the phone is offline or a form is used */ }
}
