/**
 * Answers kept by the text they were computed from (a header, a path, a query string): what a
 * client sends on every request is worked out once. At most `max` are kept; when full, all are
 * dropped (the texts that come back are few, so they are back at once). A computation that
 * throws is not kept.
 */
export function createTextMemo<T>(max = 256): (text: string, compute: () => T) => T {
  const answers = new Map<string, T>();
  return (text, compute) => {
    if (answers.has(text)) return answers.get(text) as T;
    const answer = compute();
    if (answers.size >= max) answers.clear();
    answers.set(text, answer);
    return answer;
  };
}
