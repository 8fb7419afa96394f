import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';

interface PaginationProps {
  page: number;
  pageSize: number;
  count: number;
  onPageChange: (page: number) => void;
  /** What is being paged, for the navigation landmark's label. */
  label: string;
}

/** "1–20 of 45" with Previous and Next. Pages are 1-based. */
export function Pagination({ page, pageSize, count, onPageChange, label }: PaginationProps) {
  const first = count === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, count);
  const hasPrevious = page > 1;
  const hasNext = page * pageSize < count;
  return (
    <nav aria-label={`${label} pages`} className="flex items-center justify-between gap-4 py-3 text-sm">
      <p className="text-gray-700 dark:text-gray-300">
        {first}–{last} of {count}
      </p>
      <div className="flex gap-2">
        <Button size="sm" disabled={!hasPrevious} onClick={() => onPageChange(page - 1)}>
          <ChevronLeft aria-hidden="true" className="size-4" />
          Previous
        </Button>
        <Button size="sm" disabled={!hasNext} onClick={() => onPageChange(page + 1)}>
          Next
          <ChevronRight aria-hidden="true" className="size-4" />
        </Button>
      </div>
    </nav>
  );
}
