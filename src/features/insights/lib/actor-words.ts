/** What an analysis counts, in words: persons, or the groups of the type it is aggregated by. */
export interface ActorWords {
  one: string;
  many: string;
  groups: boolean;
}

export const PERSONS: ActorWords = { one: 'person', many: 'persons', groups: false };

/** An English plural for a group type's name when the project gives none (company → companies). */
export function pluralOf(word: string): string {
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}

export const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A column or axis title for the counted: "Persons", "Companies". */
export const actorsTitle = (words: ActorWords) => capitalized(words.many);
