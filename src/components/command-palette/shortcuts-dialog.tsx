import { Button } from '@/components/ui/button';
import { DialogClose, Modal } from '@/components/ui/dialog';

const apple = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** Every keyboard shortcut of the app, for the `?` dialog. */
const SHORTCUTS: readonly { keys: readonly string[]; does: string }[] = [
  {
    keys: [apple ? '⌘' : 'Ctrl', 'K'],
    does: 'Open the command palette: go to an organization, project, batch export or insight; run an action',
  },
  { keys: ['?'], does: 'Show these shortcuts' },
  { keys: ['Esc'], does: 'Close a dialog, menu or the palette' },
  { keys: ['↑', '↓'], does: 'Move through the palette, menus and pickers' },
  { keys: ['Enter'], does: 'Open or run the highlighted item' },
  { keys: ['Tab'], does: 'Move to the next control (the first stop is “Skip to content”)' },
];

export default function ShortcutsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Keyboard shortcuts">
      <dl className="space-y-2 text-sm">
        {SHORTCUTS.map((s) => (
          <div key={s.does} className="flex items-start justify-between gap-4">
            <dt className="flex shrink-0 gap-1">
              {s.keys.map((k) => (
                <kbd
                  key={k}
                  className="min-w-6 rounded border border-gray-300 bg-gray-50 px-1.5 py-0.5 text-center font-sans text-xs dark:border-gray-600 dark:bg-gray-800"
                >
                  {k}
                </kbd>
              ))}
            </dt>
            <dd className="text-right text-gray-700 dark:text-gray-300">{s.does}</dd>
          </div>
        ))}
      </dl>
      {/* A way out for a pointer and for Tab, besides Esc. */}
      <div className="mt-4 flex justify-end">
        <DialogClose asChild>
          <Button>Close</Button>
        </DialogClose>
      </div>
    </Modal>
  );
}
