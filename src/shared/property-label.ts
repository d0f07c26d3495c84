/**
 * A program's custom property keys are identifiers (`openingHours`, `opening_hours`,
 * `parking-spots`); shoppers read them as words: "Opening hours", "Parking spots". Acronyms stay
 * as written ("wifiSSID" reads "Wifi SSID"); a key that is already words is left alone.
 */
export function propertyLabel(key: string): string {
  const trimmed = key.trim();
  if (/\s/u.test(trimmed)) return trimmed;
  const words = trimmed
    // lowerUpper and ACRONYMWord boundaries, then separators.
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[\s_-]+/u)
    .filter(Boolean);
  if (words.length === 0) return key;
  const shown = words.map((word, index) =>
    word === word.toUpperCase() && word.length > 1 ? word : index === 0 ? word : word.toLowerCase(),
  );
  const first = shown[0]!;
  shown[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return shown.join(' ');
}
