import { Plus, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';

/** The insight's tags: each removable, a new one added with Enter or "Add tag". */
export function TagsEditor({
  tags,
  onChange,
  disabled = false,
}: {
  tags: readonly string[];
  onChange: (tags: string[]) => void;
  disabled?: boolean;
}) {
  const [text, setText] = useState('');
  const id = useId();
  const add = () => {
    const tag = text.trim();
    if (!tag) return;
    if (!tags.includes(tag)) onChange([...tags, tag]);
    setText('');
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      <ul aria-label="Tags" className="flex flex-wrap gap-1">
        {tags.map((tag) => (
          <li key={tag}>
            <Badge>
              {tag}
              <button
                type="button"
                aria-label={`Remove tag ${tag}`}
                disabled={disabled}
                onClick={() => onChange(tags.filter((other) => other !== tag))}
                className="rounded-full hover:bg-gray-200 dark:hover:bg-gray-700"
              >
                <X aria-hidden="true" className="size-3" />
              </button>
            </Badge>
          </li>
        ))}
      </ul>
      <label htmlFor={id} className="sr-only">
        New tag
      </label>
      <input
        id={id}
        value={text}
        disabled={disabled}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            add();
          }
        }}
        placeholder="New tag"
        className="h-8 w-32 rounded-md border border-gray-300 bg-white px-2 text-sm dark:border-gray-600 dark:bg-gray-900"
      />
      <Button size="sm" onClick={add} disabled={disabled || !text.trim()}>
        <Plus aria-hidden="true" className="size-4" />
        Add tag
      </Button>
    </div>
  );
}
