import { useState } from 'react';
const EXPORT_FAILED = 'The export could not start. Please try again in a moment.';

/** What a refused export means, in words: never the gateway's plain-text answer as a file. */
function refusal(status: number): string {
  switch (status) {
    case 400:
      return 'These filters cannot be exported: check the search and the creation days, then try again.';
    case 401:
      return 'Your session has ended. Sign in again, then export.';
    case 403:
      return 'You are not permitted to export shipments.';
    default:
      return EXPORT_FAILED;
  }
}

/**
 * Export CSV: asks for the file first and reads only its answer's status, so a refusal is said
 * in words, once, above the list; once the file is on its way, the browser downloads it (streamed to disk, however
 * many shipments) from the same address.
 */
export function useCsvExport() {
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const start = async (href: string) => {
    setStarting(true);
    setError(null);
    const check = new AbortController();
    try {
      const response = await fetch(href, { signal: check.signal, credentials: 'same-origin' });
      check.abort();
      if (!response.ok) {
        setError(refusal(response.status));
        return;
      }
      const link = document.createElement('a');
      link.href = href;
      link.download = '';
      link.click();
    } catch {
      setError(EXPORT_FAILED);
    } finally {
      setStarting(false);
    }
  };

  return { start, starting, error };
}
