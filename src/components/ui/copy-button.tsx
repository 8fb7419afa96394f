import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from '@/lib/toast';
import { Button } from './button';

/** Copies `value` to the clipboard. The button reads "Copy <what>" ("Copy API token"). */
export function CopyButton({ value, what }: { value: string; what: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Button
      size="sm"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          toast.success('Copied to the clipboard');
        } catch {
          toast.error("Couldn't copy: the browser did not allow it. Select the text and copy it instead.");
        }
      }}
    >
      {copied ? <Check aria-hidden="true" className="size-4" /> : <Copy aria-hidden="true" className="size-4" />}
      {copied ? 'Copied' : 'Copy'}
      <span className="sr-only"> {what}</span>
    </Button>
  );
}
