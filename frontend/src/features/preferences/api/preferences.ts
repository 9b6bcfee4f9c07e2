// The signed-in user's stored preferences (through the gateway, with the session cookie).
import { preferenceClient } from '@/lib/transport';

const TIMEOUT_MS = 10_000;

/** The stored dark-mode choice; undefined when the user never chose. */
export async function loadDarkMode(signal?: AbortSignal): Promise<boolean | undefined> {
  const preferences = await preferenceClient.getPreferences({}, { signal, timeoutMs: TIMEOUT_MS });
  return preferences.isDarkMode;
}

/** Saves dark (true) or light (false); undefined forgets the choice (follow the system). */
export async function saveDarkMode(isDarkMode: boolean | undefined): Promise<void> {
  await preferenceClient.updatePreferences(
    { preferences: { isDarkMode }, updateMask: { paths: ['is_dark_mode'] } },
    { timeoutMs: TIMEOUT_MS },
  );
}
