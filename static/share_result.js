// The result card of a decided match through the phone's share sheet, loaded by static/phone.js on the tap of
// "Share the result": the card the server draws (an SVG), sent as a PNG drawn from it here, a picture that every
// messaging app shows. Should anything fail, the link downloads the SVG.

async function pictureOf(svg) {
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const canvas = Object.assign(document.createElement("canvas"), { width: image.naturalWidth, height: image.naturalHeight });
  canvas.getContext("2d").drawImage(image, 0, 0);
  return new Promise((done, fail) => canvas.toBlob((png) => (png ? done(png) : fail(new Error("no picture"))), "image/png"));
}

/** Shares the card that `link` leads to. */
export async function share(link) {
  try {
    const answer = await fetch(link.href);
    if (!answer.ok) throw new Error(answer.statusText);
    const png = await pictureOf(await answer.text());
    await navigator.share({ title: link.dataset.shareTitle, files: [new File([png], "result.png", { type: "image/png" })] });
  } catch (error) {
    if (error.name !== "AbortError") location.assign(link.href);
  }
}
