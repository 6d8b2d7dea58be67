// SHA-256 as hex, the form build-info.json and the wheel manifest list their files' digests in:
// shared by the page (offline.js) and the solver worker (worker/boot.js).

/** The hex SHA-256 of `data` (an ArrayBuffer or a view); "" without WebCrypto (a page served over plain HTTP from another host). */
export async function sha256Hex(data) {
  if (!globalThis.crypto?.subtle) return "";
  const digest = await crypto.subtle.digest("SHA-256", data);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
