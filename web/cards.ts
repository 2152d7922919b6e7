/**
 * The cards as SVG, drawn for the two packs: the French 36-card pack (four colours:
 * clubs green, spades black, hearts red, diamonds blue, as the terminal colours them)
 * and the Cego tarock pack (tarocks numbered large on a yellow ground, the suit cards
 * as the French). A card is named as RECORD.md names it (`10H`, `JS`, `T21`, `??`).
 */
const SUITS: Record<string, { symbol: string; colour: string; name: string }> = {
  C: { symbol: '♣', colour: '#1a7f37', name: 'clubs' },
  S: { symbol: '♠', colour: '#111111', name: 'spades' },
  H: { symbol: '♥', colour: '#c8102e', name: 'hearts' },
  D: { symbol: '♦', colour: '#1554c0', name: 'diamonds' },
};

/** The rank shown: `10`, `J`, `21`; a tarock by its number. */
function rankOf(name: string, suit: string): string {
  if (suit === 'T') return name.replace(/^T/, '');
  return SUITS[suit] && name.endsWith(suit) ? name.slice(0, -1) : name;
}

function esc(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** One card, 60 x 90 units, scaled by CSS. */
export function cardSvg(name: string, suit: string): string {
  const head = `<svg viewBox="0 0 60 90" class="card-face" role="img" aria-label="${esc(name)}">`;
  const frame = (fill: string): string =>
    `<rect x="1" y="1" width="58" height="88" rx="6" fill="${fill}" stroke="#333" stroke-width="1.2"/>`;
  if (suit === '?' || name === '??')
    return `${head}${frame('#3a5a8c')}<rect x="7" y="7" width="46" height="76" rx="3" fill="none" stroke="#dfe8f5" stroke-width="2" stroke-dasharray="4 3"/></svg>`;
  const rank = esc(rankOf(name, suit));
  if (suit === 'T') {
    const n = rankOf(name, suit);
    const label = n === '22' ? 'Gstieß' : 'Tarock';
    return (
      `${head}${frame('#fff6cc')}<rect x="5" y="5" width="50" height="80" rx="4" fill="none" stroke="#b8860b" stroke-width="1.5"/>` +
      `<text x="30" y="54" text-anchor="middle" font-size="30" font-weight="700" fill="#5a3d00" font-family="Georgia, serif">${rank}</text>` +
      `<text x="30" y="78" text-anchor="middle" font-size="9" fill="#5a3d00" font-family="sans-serif">${label}</text>` +
      `<text x="7" y="16" font-size="11" font-weight="700" fill="#5a3d00" font-family="sans-serif">${rank}</text></svg>`
    );
  }
  const s = SUITS[suit] ?? { symbol: '?', colour: '#555', name: 'unknown' };
  return (
    `${head}${frame('#ffffff')}` +
    `<text x="6" y="19" font-size="16" font-weight="700" fill="${s.colour}" font-family="sans-serif">${rank}</text>` +
    `<text x="6" y="33" font-size="13" fill="${s.colour}">${s.symbol}</text>` +
    `<text x="30" y="66" text-anchor="middle" font-size="34" fill="${s.colour}">${s.symbol}</text>` +
    `<text x="54" y="84" text-anchor="end" font-size="12" font-weight="700" fill="${s.colour}" font-family="sans-serif">${rank}</text></svg>`
  );
}
