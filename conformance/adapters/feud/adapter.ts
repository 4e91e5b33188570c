/**
 * canasta-ref protocol adapter for feudalism-dev/Canasta (TypeScript; its 'canasta' variant).
 * One JSON request a line on stdin, one JSON answer a line on stdout. The engine's modules are loaded at run
 * time from the checkout FEUD_ENGINE names (run.sh checks it is set), never copied. Why each translation is as it is: README.md.
 */
import { createInterface } from 'node:readline'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const ENGINE = process.env.FEUD_ENGINE ?? ''
const COMMIT = '8aa7f0a'
const PLAYERS = 4
const HAND = 11

type Card = { id: string; rank: string; suit: string }
type Json = Record<string, any>

let R: any = null // the engine's rules module
let S: any = null // state
let C: any = null // cards
let SC: any = null // score
let M: any = null // melds

async function load(): Promise<void> {
  if (!ENGINE) throw new Error(`FEUD_ENGINE is not set: set it to a checkout of feudalism-dev/Canasta at commit ${COMMIT}`)
  const core = (name: string) => import(pathToFileURL(join(ENGINE, 'src', 'core', `${name}.ts`)).href)
  ;[R, S, C, SC, M] = await Promise.all([core('rules'), core('state'), core('cards'), core('score'), core('melds')])
}

class Refused extends Error {}

/** Protocol text of an engine card: rank then suit, JK for a joker. */
function text(card: Card): string {
  return card.rank === 'JOKER' ? 'JK' : `${card.rank}${card.suit}`
}

function cardList(value: unknown): string[] {
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean).map((t) => t.toUpperCase())
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.map((t) => t.toUpperCase())
  throw new Error('cards must be a text or a list of card texts')
}

/** Engine cards for the protocol texts, each a distinct unused copy; null if one is missing. */
function pick(from: Card[], texts: string[]): Card[] | null {
  const left = [...from]
  const out: Card[] = []
  for (const t of texts) {
    const i = left.findIndex((c) => text(c) === t)
    if (i < 0) return null
    out.push(left[i]!)
    left.splice(i, 1)
  }
  return out
}

class Adapter {
  state: any = null
  bonus: string[][] = [[], [], [], []]
  base: number[] = [0, 0]
  totals: number[] | null = null
  history: { state: any; bonus: string[][]; totals: number[] | null }[] = []
  /** Our first seat is the engine's seat 0 (it lays dealt red threes from its seat 0): our seat s is engine
   * seat (s - first) mod 4, and our side k the engine's team (k + first) mod 2. */
  first = 0

  eng(seat: number): number {
    return (seat - this.first + PLAYERS) % PLAYERS
  }

  ours(engineSeat: number): number {
    return (engineSeat + this.first) % PLAYERS
  }

  team(side: number): number {
    return (side + this.first) % 2
  }

  hello(req: Json): Json {
    const two = req.protocol === 2 || (Array.isArray(req.protocols) && req.protocols.includes(2))
    const capabilities: Json = {
      setup_position: true, parameters: false, legal: 'none', rule_ids: false, views: true, score: true, undo: true,
    }
    if (two) {
      capabilities.score = 'totals'
      capabilities.absent_features = ['ask', 'end']
      // A tie at the target ends the engine's match with no winner (finishMatch): our match_tie 'draw'.
      capabilities.fixed_parameters = { classic: { match_tie: 'draw' } }
    }
    return { ok: true, name: 'feudalism-dev-canasta', version: COMMIT, protocol: two ? 2 : 1, variants: ['classic'], capabilities }
  }

  setup(req: Json): Json {
    if (req.variant !== 'classic') return { ok: false, skip: 'the adapter plays the engine\'s four-handed canasta only' }
    if (req.parameters && Object.keys(req.parameters).length) return { ok: false, skip: 'the engine\'s canasta has no parameters' }
    if (req.position) return this.setupPosition(req.position)
    const deck = cardList(req.deck ?? '')
    const full = (C.buildDeck(2) as Card[]).map(text).sort()
    if (deck.length !== 108 || JSON.stringify([...deck].sort()) !== JSON.stringify(full)) {
      return { ok: false, error: 'the deck must be the 108 cards of Classic' }
    }
    const first = req.first_seat ?? 0
    const scores = req.team_scores ?? [0, 0]
    if (!Number.isInteger(first) || first < 0 || first > 3 || !Array.isArray(scores) || scores.length !== 2) {
      return { ok: false, error: 'first_seat must be 0-3 and team_scores two numbers' }
    }
    // The engine deals 11 cards to each player in turn from a forced stock; order it so seat s gets our cards.
    const pool: Card[] = C.buildDeck(2)
    const ordered: Card[] = []
    // Engine seat e gets our seat first+e's cards: card i goes to our seat first+i, so engine seat i mod 4.
    const hands: string[][] = [[], [], [], []]
    deck.slice(0, PLAYERS * HAND).forEach((t, i) => hands[i % PLAYERS]!.push(t))
    for (const t of [...hands.flat(), ...deck.slice(PLAYERS * HAND)]) {
      const i = pool.findIndex((c) => text(c) === t)
      ordered.push(pool.splice(i, 1)[0]!)
    }
    const names = ['S0', 'S1', 'S2', 'S3']
    const state = S.createMatch({ variant: 'canasta', names, humans: [false, false, false, false], seed: 1, stock: ordered })
    this.first = first
    state.currentPlayer = 0
    state.teams[this.team(0)].score = Number(scores[0])
    state.teams[this.team(1)].score = Number(scores[1])
    this.state = state
    this.base = [Number(scores[0]), Number(scores[1])]
    this.totals = null
    this.history = []
    // The engine keeps red threes per team; which seat laid each is found by replaying its deal-time flush
    // (seat 0 to 3 whoever plays first, each until its hand holds none, one replacement a three) on the cards it dealt.
    const stock = ordered.slice(PLAYERS * HAND + state.discard.length).map(text)
    const laidBy = hands.map((h) => {
      const held = [...h]
      const laid: string[] = []
      for (;;) {
        const reds = held.filter((t) => t === '3D' || t === '3H').sort()
        if (!reds.length) break
        for (const r of reds) held.splice(held.indexOf(r), 1)
        laid.push(...reds)
        held.push(...stock.splice(0, reds.length))
      }
      return laid
    })
    this.bonus = [0, 1, 2, 3].map((seat) => laidBy[this.eng(seat)]!)
    return { ok: true }
  }

  apply(req: Json): Json {
    if (!this.state) return { ok: false, error: 'no hand has been set up' }
    const action = req.action
    if (!action || typeof action.type !== 'string') return { ok: false, error: 'action must be an object with a type' }
    const saved = { state: S.cloneState(this.state), bonus: this.bonus.map((b) => [...b]), totals: this.totals }
    const seat = req.seat ?? this.ours(this.state.currentPlayer)
    try {
      if (this.over()) throw new Refused('the hand is over')
      if (!Number.isInteger(seat) || this.eng(seat) !== this.state.currentPlayer) throw new Refused('it is not that seat\'s turn')
      this.play(action, this.eng(seat))
    } catch (e) {
      this.state = saved.state
      this.bonus = saved.bonus
      this.totals = saved.totals
      if (e instanceof Refused) return { ok: true, accepted: false, message: e.message }
      return { ok: false, error: String(e instanceof Error ? e.message : e) }
    }
    this.history.push(saved)
    if (this.over() && !this.totals) this.totals = [0, 1].map((k) => this.state.teams[this.team(k)].score - this.base[k]!)
    return { ok: true, accepted: true }
  }

  run(move: Json, seat: number): void {
    const team = this.state.players[seat].team
    const before = this.state.teams[team].redThrees.length
    const result = R.tryApply(this.state, move, seat)
    if (!result.ok) throw new Refused(result.error)
    for (const c of this.state.teams[team].redThrees.slice(before)) this.bonus[this.ours(seat)]!.push(text(c))
  }

  hand(seat: number): Card[] {
    return this.state.players[seat].hand
  }

  ids(seat: number, texts: string[]): string[] {
    const cards = pick(this.hand(seat), texts)
    if (!cards) throw new Refused('those cards are not in the hand')
    return cards.map((c) => c.id)
  }

  play(action: Json, seat: number): void {
    switch (action.type) {
      case 'draw':
        return this.run({ kind: 'drawStock' }, seat)
      case 'take':
        return this.take(action, seat)
      case 'meld':
        return this.meld(action.melds, seat)
      case 'discard':
        if (typeof action.card !== 'string') throw new Error('discard needs a card')
        return this.run({ kind: 'discard', cardId: this.ids(seat, [action.card.toUpperCase()])[0] }, seat)
      case 'ask': case 'yes': case 'no':
        throw new Refused('the engine\'s canasta has no "may I go out?" question')
      case 'end':
        throw new Refused('the engine has no action that ends the hand without a discard')
      default:
        throw new Error(`unknown action type '${action.type}'`)
    }
  }

  /** A written-out position: a match is created, then its plain state object (the engine keeps no hidden
   * state) is given the position's hands, pile, melds, red threes, stock, scores, turn and phase. */
  setupPosition(p: Json): Json {
    if (!p || typeof p !== 'object' || !Array.isArray(p.hands) || p.hands.length !== PLAYERS) {
      return { ok: false, error: 'position needs four hands' }
    }
    if ((p.permission ?? 'none') !== 'none') return { ok: false, skip: 'the engine\'s canasta has no partner permission' }
    const phase = p.phase ?? 'draw'
    if (phase !== 'draw' && phase !== 'play') return { ok: false, error: 'phase must be draw or play' }
    const toAct = p.to_act ?? 0
    if (!Number.isInteger(toAct) || toAct < 0 || toAct > 3) return { ok: false, error: 'to_act must be 0-3' }
    const pool: Card[] = C.buildDeck(2)
    const take = (texts: string[]): Card[] =>
      texts.map((t) => {
        const i = pool.findIndex((c) => text(c) === t)
        if (i < 0) throw new Error(`more copies of ${t} than the deck holds`)
        return pool.splice(i, 1)[0]!
      })
    const hands = p.hands.map((h: unknown) => take(cardList(h)))
    const pile = take(cardList(p.pile ?? ''))
    const sides = p.melds ?? [[], []]
    if (!Array.isArray(sides) || sides.length !== 2) return { ok: false, error: 'two sides\' melds are needed' }
    const melds = sides.map((side: Json[]) =>
      side.map((m: Json) => {
        const cards = take(cardList(typeof m === 'object' && !Array.isArray(m) ? m.cards : m))
        const rank = M.inferMeldRank(cards)
        if (!rank) throw new Error('a meld must hold natural cards of one rank')
        return { rank, cards, closed: false }
      }),
    )
    const threes = (p.red_threes ?? ['', '', '', '']).map((r: unknown) => take(cardList(r)))
    const stock = p.stock !== undefined ? take(cardList(p.stock)) : this.unshuffled(pool)
    if (p.stock !== undefined && pool.length) return { ok: false, error: 'the position does not place every card of the deck' }
    const state = S.createMatch({ variant: 'canasta', names: ['S0', 'S1', 'S2', 'S3'], humans: [false, false, false, false], seed: 1 })
    const scores = p.team_scores ?? [0, 0]
    const melded = p.melded ?? [false, false, false, false]
    state.players.forEach((pl: Json, seat: number) => {
      pl.hand = hands[seat]
      pl.meldedThisHand = Boolean(melded[seat])
      pl.concealedEligible = !melded[seat]
    })
    for (let t = 0; t < 2; t++) {
      state.teams[t].melds = melds[t]
      state.teams[t].redThrees = [...threes[t]!, ...threes[t + 2]!]
      state.teams[t].hasInitialMeld = melds[t].length > 0
      state.teams[t].score = Number(scores[t])
    }
    state.discard = pile
    state.discardFrozen = Boolean(p.upcard_froze) || pile.some((c: Card) => C.isWild(c))
    state.stock = stock
    state.currentPlayer = toAct
    state.phase = phase === 'draw' ? 'awaitingDraw' : 'awaitingPlay'
    this.state = state
    this.first = 0
    this.base = [Number(scores[0]), Number(scores[1])]
    this.bonus = threes.map((t: Card[]) => t.map(text))
    this.totals = null
    this.history = []
    return { ok: true }
  }

  /** Cards placed nowhere, in the protocol's unshuffled order: pack by pack, 2C 2D 2H 2S 3C ... AS, jokers. */
  unshuffled(pool: Card[]): Card[] {
    const ranks = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A']
    const order: string[] = []
    for (let pack = 0; pack < 2; pack++) {
      for (const r of ranks) for (const suit of ['C', 'D', 'H', 'S']) order.push(`${pack}:${r}${suit}`)
      order.push(`${pack}:JK`, `${pack}:JK`)
    }
    const left = [...pool]
    const out: Card[] = []
    for (const key of order) {
      const t = key.split(':')[1]!
      const i = left.findIndex((c) => text(c) === t)
      if (i >= 0) out.push(left.splice(i, 1)[0]!)
    }
    return out
  }

  /** Before its side has opened, the engine's takePile gets every card (it groups them itself and counts the
   * minimum over all); after, it uses only the top card's rank and puts other cards back in the hand, so the
   * adapter then adds the rest of the claim to that meld and lays the extra melds as a meld move. */
  take(action: Json, seat: number): void {
    const claim = cardList(action.cards ?? [])
    const extra: Json[] = Array.isArray(action.melds) ? action.melds : []
    const team = this.state.teams[this.state.players[seat].team]
    if (!team.hasInitialMeld) {
      const texts = [...claim, ...extra.flatMap((g: Json) => cardList(g.cards ?? []))]
      return this.run({ kind: 'takePile', cardIds: this.ids(seat, texts) }, seat)
    }
    const top: Card | undefined = this.state.discard[this.state.discard.length - 1]
    const claimIds = this.ids(seat, claim)
    this.run({ kind: 'takePile', cardIds: claimIds }, seat)
    const left = claimIds.filter((id) => this.hand(seat).some((c) => c.id === id))
    if (left.length && top) {
      const index = team.melds.findIndex((m: Json) => m.cards.some((c: Card) => c.id === top.id))
      if (index < 0) throw new Refused('the top card was not melded')
      this.run({ kind: 'addToMeld', meldIndex: index, cardIds: left }, seat)
    }
    if (extra.length) this.meld(extra, seat)
  }

  /** New melds go in one engine 'meld' move (its opening minimum counts them together); a group of a rank the
   * side has already melded is an 'addToMeld' (the engine's meld move does not add to melds). */
  meld(groups: unknown, seat: number): void {
    if (!Array.isArray(groups) || !groups.length) throw new Refused('a meld action needs at least one group')
    const team = this.state.teams[this.state.players[seat].team]
    const rankOf = (g: Json): string | null => {
      const natural = cardList(g.cards ?? []).find((t) => t !== 'JK' && !t.startsWith('2'))
      return natural ? natural.slice(0, -1) : g.rank !== undefined ? String(g.rank).toUpperCase() : null
    }
    const additions: Json[] = []
    const packs: string[][] = []
    const held = [...this.hand(seat)]
    for (const g of groups as Json[]) {
      const cards = pick(held, cardList(g.cards ?? []))
      if (!cards) throw new Refused('those cards are not in the hand')
      for (const c of cards) held.splice(held.indexOf(c), 1)
      const rank = rankOf(g)
      const index = team.melds.findIndex((m: Json) => m.rank === rank)
      if (index >= 0) additions.push({ index, ids: cards.map((c) => c.id) })
      else packs.push(cards.map((c) => c.id))
    }
    if (packs.length) this.run({ kind: 'meld', cardIds: packs.flat(), groups: packs }, seat)
    for (const add of additions) this.run({ kind: 'addToMeld', meldIndex: add.index, cardIds: add.ids }, seat)
  }

  over(): boolean {
    return this.state.phase === 'roundEnd' || this.state.phase === 'matchEnd'
  }

  end(): string | null {
    if (!this.over()) return null
    return this.state.wentOutPlayer >= 0 ? 'went out' : 'stock exhausted'
  }

  view(req: Json): Json {
    if (!this.state) return { ok: false, error: 'no hand has been set up' }
    const seat = req.seat
    if (!Number.isInteger(seat) || seat < 0 || seat > 3) return { ok: false, error: 'seat must be 0-3' }
    const st = this.state
    const e = this.eng(seat)
    const sides = [0, 1].map((k) => st.teams[this.team(k)])
    const phase = this.over() ? 'over' : st.phase === 'awaitingDraw' ? 'draw' : 'play'
    const size = st.config.canastaSize
    const view = {
      seat,
      to_act: this.ours(st.currentPlayer),
      phase,
      hand: this.hand(e).map(text),
      hand_sizes: [0, 1, 2, 3].map((s) => st.players[this.eng(s)].hand.length),
      stock_size: st.stock.length,
      pile: st.discard.map(text),
      pile_frozen: Boolean(R.pileFrozenFor(st, e)),
      melds: sides.map((t: Json) => t.melds.map((m: Json) => ({ cards: m.cards.map(text), canasta: Boolean(M.meldIsCanasta(m, size)) }))),
      canastas: sides.map((t: Json) => t.melds.filter((m: Json) => M.meldIsCanasta(m, size)).length),
      bonus_cards: this.bonus,
      team_scores: [...this.base],
      permission: 'none',
      end: this.end(),
    }
    return { ok: true, view }
  }

  score(): Json {
    if (!this.state) return { ok: false, error: 'no hand has been set up' }
    const over = this.over()
    const totals = over && this.totals ? this.totals : [0, 1].map((k) => SC.scoreTeamHand(this.state, this.team(k), -1).total)
    const matchOver = this.state.phase === 'matchEnd'
    return { ok: true, over, end: this.end(), totals, parts: [{}, {}], match_over: matchOver }
  }

  undo(): Json {
    const last = this.history.pop()
    if (!last) return { ok: false, error: 'nothing to undo' }
    this.state = last.state
    this.bonus = last.bonus
    this.totals = last.totals
    return { ok: true }
  }

  handle(req: Json): Json {
    switch (req.cmd) {
      case 'hello': return this.hello(req)
      case 'setup': return this.setup(req)
      case 'apply': return this.apply(req)
      case 'view': return this.view(req)
      case 'score': return this.score()
      case 'undo': return this.undo()
      case 'legal': return { ok: false, error: 'the engine lists a sample of moves; legal is not offered' }
      case 'quit': return { ok: true }
      default: return { ok: false, error: `unknown command ${JSON.stringify(req.cmd)}` }
    }
  }
}

async function main(): Promise<void> {
  let loadError: string | null = null
  try {
    await load()
  } catch (e) {
    loadError = `the engine could not be loaded from ${ENGINE || 'FEUD_ENGINE'}: ${e instanceof Error ? e.message : e}`
  }
  const adapter = new Adapter()
  const lines = createInterface({ input: process.stdin })
  for await (const line of lines) {
    if (!line.trim()) continue
    let req: Json
    try {
      req = JSON.parse(line)
    } catch {
      process.stdout.write(JSON.stringify({ ok: false, error: 'the request is not JSON' }) + '\n')
      continue
    }
    if (!req || typeof req !== 'object' || Array.isArray(req)) {
      process.stdout.write(JSON.stringify({ ok: false, error: 'the request is not an object' }) + '\n')
      continue
    }
    let reply: Json
    try {
      reply = loadError && req.cmd !== 'quit' ? { ok: false, error: loadError } : adapter.handle(req)
    } catch (e) {
      reply = { ok: false, error: `adapter error: ${e instanceof Error ? e.message : e}` }
    }
    if ('id' in req) reply.id = req.id
    process.stdout.write(JSON.stringify(reply) + '\n')
    if (req.cmd === 'quit') break
  }
}

main()
