/** Hands bytes to the browser as a download named `name`: the key never goes into a URL to fetch it. */
export function saveFile(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken its bytes once the click's task has run.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
