/** The buttons under a filter form kept in the address: Apply, and Clear once something is set. */
export function FilterActions({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return (
    <div className="filter-actions">
      <button type="submit" className="btn btn-primary">
        Apply filters
      </button>
      {filtered && (
        <button type="button" className="btn btn-outline" onClick={onClear}>
          Clear filters
        </button>
      )}
    </div>
  );
}
