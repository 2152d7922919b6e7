// An example of a bot of your own, in plain JavaScript:
//   tafel run --game viersche --bots ./bots/examples/lowest.js,random --deals 100
// The module exports a bot spec (see src/games/bot.ts). `act` receives the seat's
// observation and the legal moves as a move set: four 32-bit lanes, move = lane << 5 | bit.
// This bot plays the lowest legal move: in Viersche the weakest trump, else the lowest
// card of the first suit it holds; to a yes/no question it answers NO (code 126 < 127).
export default {
  name: 'lowest',
  description: 'plays the lowest legal move (an example bot module)',
  params: [],
  create() {
    return {
      act(_obs, legal) {
        for (let lane = 0; lane < 4; lane++) {
          const m = legal[lane];
          if (m !== 0) return (lane << 5) | (31 - Math.clz32(m & -m));
        }
        throw new Error('no legal move');
      },
    };
  },
};
