// Offline: the service worker (/sw.js) keeps the pages this phone opens. A page opened before the worker
// took over was not seen by it, so the page asks it to keep a copy. For pages whose script is a module;
// static/app.js does the same for the others.
export function keepPagesOffline() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js")
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      if (!navigator.serviceWorker.controller && registration.active) {
        registration.active.postMessage({ keep: window.location.href });
      }
    })
    .catch(() => undefined);  // no worker (private mode, an old browser): the pages work as before
}
