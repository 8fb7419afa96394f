import { Star } from 'lucide-react';
import { insightEndpoints } from '@/contract/insights';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';

/** A star toggle ("Favorite <name>", pressed when favorited). */
export function FavoriteButton({
  name,
  favorited,
  onChange,
}: {
  name: string;
  favorited: boolean;
  onChange: (favorited: boolean) => void;
}) {
  return (
    <ScopedAction scope={insightEndpoints.update.access}>
      <Button
        variant="ghost"
        size="sm"
        aria-pressed={favorited}
        aria-label={`Favorite ${name}`}
        onClick={() => onChange(!favorited)}
      >
        <Star aria-hidden="true" className={cn('size-4', favorited ? 'fill-amber-400 text-amber-600' : '')} />
      </Button>
    </ScopedAction>
  );
}
