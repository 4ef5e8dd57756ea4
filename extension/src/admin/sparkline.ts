const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 120;
const HEIGHT = 24;

/**
 * A small line chart of a figure's recent values, drawn as SVG so the theme's variables colour
 * it (style/base.css). Missing values break the line rather than drop it to zero.
 */
export class Sparkline {
  readonly node = document.createElementNS(SVG, 'svg');
  private readonly line = document.createElementNS(SVG, 'path');

  constructor(label: string) {
    this.node.setAttribute('class', 'searchbook-Sparkline');
    this.node.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
    this.node.setAttribute('preserveAspectRatio', 'none');
    this.node.setAttribute('role', 'img');
    this.node.setAttribute('aria-label', `${label}, recent values`);
    this.line.setAttribute('class', 'searchbook-Sparkline-line');
    this.node.append(this.line);
  }

  /** `capacity` points span the whole width; `ceiling` is the top of the scale when known (a total). */
  draw(values: (number | null)[], capacity: number, ceiling?: number): void {
    const numbers = values.filter((v): v is number => v !== null);
    const top = Math.max(ceiling ?? 0, ...numbers, 0);
    const step = WIDTH / Math.max(1, capacity - 1);
    const start = capacity - values.length;
    let path = '';
    let pen = false;
    values.forEach((value, i) => {
      if (value === null) {
        pen = false;
        return;
      }
      const x = (start + i) * step;
      const y =
        top === 0 ? HEIGHT - 1 : HEIGHT - 1 - (value / top) * (HEIGHT - 2);
      path += `${pen ? 'L' : 'M'}${x.toFixed(1)} ${y.toFixed(1)} `;
      pen = true;
    });
    this.line.setAttribute('d', path.trim());
    this.node.dataset.points = String(numbers.length);
  }
}
