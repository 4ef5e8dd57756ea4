import { type CellRenderer, TextRenderer } from '@lumino/datagrid';
import type { GridTheme } from './grid-theme';

type HeaderRegion = 'column-header' | 'row-header' | 'corner-header';

/**
 * The header renderers every grid paints with: the column header's name line bold, the type
 * line under it muted, row numbers right-aligned. `elideColumnHeaders` ends a cut header line in
 * "…" instead of a cut word (a type line "keywor").
 */
export function headerRenderers(
  theme: GridTheme,
  options: { elideColumnHeaders?: boolean } = {}
): Record<HeaderRegion, CellRenderer> {
  return {
    'column-header': new TextRenderer({
      font: ({ row }) => (row === 0 ? theme.headerFont : theme.font),
      textColor: ({ row }) => (row === 0 ? theme.textColor : theme.mutedColor),
      ...(options.elideColumnHeaders ? { elideDirection: 'right' } : {})
    }),
    'row-header': new TextRenderer({
      font: theme.font,
      textColor: theme.mutedColor,
      horizontalAlignment: 'right'
    }),
    'corner-header': new TextRenderer({
      font: theme.headerFont,
      textColor: theme.mutedColor
    })
  };
}
