// The result card of a decided match through the phone's share sheet, loaded by static/phone.js once the sheet
// shows the winner: the card the server draws (an SVG), sent as a PNG drawn from it here, a picture that every
// messaging app shows. It is drawn before the tap, so that the share sheet opens within the tap's moment (a
// browser lets a page open it only then). A phone whose share sheet takes no files, or a share that fails,
// downloads the SVG.

const pictures = new WeakMap();  // the link → the PNG file of its card, being drawn
const sharesFiles = () => navigator.canShare?.({ files: [new File([], "result.png", { type: "image/png" })] });

async function pictureOf(svg) {
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const canvas = Object.assign(document.createElement("canvas"), { width: image.naturalWidth, height: image.naturalHeight });
  canvas.getContext("2d").drawImage(image, 0, 0);
  return new Promise((done, fail) => canvas.toBlob((png) => (png ? done(png) : fail(new Error("no picture"))), "image/png"));
}

async function drawn(link) {
  const answer = await fetch(link.href);
  if (!answer.ok) throw new Error(answer.statusText);
  return new File([await pictureOf(await answer.text())], "result.png", { type: "image/png" });
}

function picture(link) {
  if (!pictures.has(link)) pictures.set(link, drawn(link));
  return pictures.get(link);
}

/** Starts drawing the card that `link` leads to, where the phone can share it. */
export function drawAhead(link) {
  if (sharesFiles()) picture(link).catch(() => undefined);  // a failure is met again on the tap
}

function download(link) {
  const plain = Object.assign(document.createElement("a"), { href: link.href, download: link.getAttribute("download") });
  document.body.append(plain);
  plain.click();
  plain.remove();
}

document.addEventListener("click", async (event) => {
  const link = /** @type {HTMLElement} */ (event.target).closest?.("[data-share-result]");
  if (!link || !sharesFiles()) return;
  event.preventDefault();
  try {
    await navigator.share({ title: link.dataset.shareTitle, files: [await picture(link)] });
  } catch (/** @type {any} */ error) {
    if (error.name !== "AbortError") download(link);  // not when the player closed the share sheet
  }
});
