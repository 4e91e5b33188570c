/**
 * Random play of feudalism-dev/Canasta for tools/bench_peers.py: the engine's 'canasta' variant for four players,
 * one new match (so one hand) a deal, played to the hand's end by a uniformly random choice among the engine's
 * listed moves, for SECONDS of this process's CPU time. Prints one JSON line: hands, actions, cpu_seconds,
 * wall_seconds (and the engine's own oddities: moves it listed and then refused, forced passes).
 * The engine's modules are loaded at run time from the checkout FEUD_ENGINE names, never copied.
 *
 * Usage: tsx bench.ts SECONDS
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const ENGINE = process.env.FEUD_ENGINE ?? ''
const NAMES = ['North', 'East', 'South', 'West']
const HUMANS = [false, false, false, false]
// A hand longer than this is cut short and counted, so that an engine stuck in a loop still ends the pass.
const CAP = 2000

async function main(): Promise<void> {
  const seconds = Number(process.argv[2])
  if (!(seconds > 0)) throw new Error('usage: bench.ts SECONDS (a positive number)')
  if (!ENGINE) throw new Error('FEUD_ENGINE is not set: set it to a checkout of feudalism-dev/Canasta')
  const core = (name: string) => import(pathToFileURL(join(ENGINE, 'src', 'core', `${name}.ts`)).href)
  const [R, SC, RNG] = await Promise.all([core('rules'), core('score'), core('rng')])
  const rand: () => number = RNG.mulberry32(1)
  const cpu = () => {
    const used = process.cpuUsage()
    return (used.user + used.system) / 1e6
  }
  // While a player asks to go out, the engine waits for the partner's answer.
  const mover = (s: any): number =>
    s.phase === 'awaitingGoOutConsent' && s.pendingGoOut ? SC.partnerIndex(s, s.pendingGoOut.playerIndex) : s.currentPlayer
  const over = (s: any): boolean => s.phase === 'roundEnd' || s.phase === 'matchEnd'

  let hands = 0
  let actions = 0
  let refused = 0
  let forced = 0
  let capped = 0
  const cpuStart = cpu()
  const wallStart = performance.now()
  for (let deal = 0; cpu() - cpuStart < seconds; deal++) {
    const s = R.createMatch({ variant: 'canasta', names: NAMES, humans: HUMANS, seed: deal })
    let played = 0
    while (!over(s)) {
      if (played >= CAP) {
        capped++
        break
      }
      const who = mover(s)
      const moves: unknown[] = R.getLegalMoves(s, who)
      let applied = false
      while (moves.length > 0) {
        const i = Math.floor(rand() * moves.length)
        if (R.tryApply(s, moves[i], who).ok) {
          applied = true
          break
        }
        refused++ // the engine's list is a sample, and not every move in it plays
        moves.splice(i, 1)
      }
      if (!applied) {
        if (!R.forcePass(s).ok) throw new Error(`deal ${deal}: no move plays and no pass is allowed`)
        forced++
      }
      played++
    }
    hands++
    actions += played
  }
  const result = {
    hands,
    actions,
    cpu_seconds: cpu() - cpuStart,
    wall_seconds: (performance.now() - wallStart) / 1000,
    refused,
    forced,
    capped,
  }
  console.log(JSON.stringify(result))
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
})
