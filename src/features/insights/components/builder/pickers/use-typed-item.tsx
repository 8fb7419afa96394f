import { CommandItem } from '@/components/ui/command';

/** The item's value: apart from every listed name, so cmdk never confuses the two. */
const FREE_PREFIX = '\u0000use:';

/**
 * "Use “x”": what the user typed, as a choice of its own when no listed name is exactly it (the
 * project may have events, keys or values the lists don't show yet). Shared by every picker.
 */
export function UseTypedItem({
  typed,
  exact,
  onPick,
}: {
  typed: string;
  exact: boolean;
  onPick: (typed: string) => void;
}) {
  if (!typed || exact) return null;
  return (
    <CommandItem value={`${FREE_PREFIX}${typed}`} onSelect={() => onPick(typed)}>
      Use “{typed}”
    </CommandItem>
  );
}
