// @ts-check
// A photo the player took or chose, made ready to send: decoded the right way up and shrunk.
import { t } from "./i18n.js";

export const MAX_SIDE = 2048;

/** Decode (EXIF orientation applied) and shrink to at most MAX_SIDE px; returns {blob, width, height}. */
export async function downscale(file, maxSide = MAX_SIDE) {
  const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
  const width = Math.round(bitmap.width * scale), height = Math.round(bitmap.height * scale);
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  canvas.getContext("2d").drawImage(bitmap, 0, 0, width, height);
  bitmap.close && bitmap.close();
  const blob = await new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error(t("photo.encode_failed")))), "image/jpeg", 0.9));
  return { blob, width, height };
}
