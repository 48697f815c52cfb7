// A line driver for the open C++ 7 Wonders Duel engine (indjev99/7-Wonders-Duel-AI): it
// replays a game given as the setup, the deals known so far and the players' moves in the
// engine's own game state, and answers the move of its MCTS agent that does not branch on
// card reveals (AgentMctsBlindReveals). Compiled with the engine's sources by build.sh; the
// adapter (adapter.py) turns the companion's records into these lines and back.
//
// One request a line on standard input, one answer a line on standard output:
//
//   objects
//     -> "object ID TYPE DECK NAME" for every object of the engine (DECK: 1, 2, 3, guild,
//        token, wonder or none; NAME may hold spaces), "slot AGE POS FACE_UP COVERED..."
//        for every position of the three layouts (COVERED: the positions this one covers),
//        then "end".
//   move BUDGET AMOUNT SEED SAMPLES SECTIONS... end
//     BUDGET is "playouts" (AMOUNT iterations, rounded up to a multiple of 10) or "seconds"
//     (AMOUNT seconds of the process's CPU time), or "none" (replay only). SECTIONS:
//       first P                 the first player (0 or 1)
//       tokens 5 IDS            the progress tokens on the board
//       wonders IDS             the 4 wonders of player 0, then the 4 of player 1
//       deal AGE 20 ENTRIES     the layout of an age (1 to 3) in layout order: an object
//                               id, -1 for a card not known, -2 for a guild's back
//       draw K IDS              the tokens of one Great Library draw, in game order
//       moves N (TYPE A1 A2)*N  the players' moves after the wonders, engine actions
//     -> "action TYPE A1 A2 CPU PLAYOUTS ACTOR" (CPU: seconds of process CPU time for the
//        answer), for "none" "ready ACTOR EXPECTED CHOICES" and each player's coins,
//        military lead and victory points (CHOICES -1 when the age is not dealt yet), or
//        "error MESSAGE".
//
// When the game waits for the next age's first reveals and its deal is not given (the
// companion asks who begins an age before that age is dealt), the answer is the majority
// over SAMPLES random deals of the age, each searched with AMOUNT / SAMPLES.

#include "agents/agent_mcts_blind_reveals.h"
#include "agents/game_simulator.h"
#include "agents/mc_config.h"
#include "game/game_exception.h"
#include "game/game_state.h"
#include "game/object_decks.h"
#include "game/objects.h"
#include "game/pyramid_schemes.h"
#include "utils/random.h"
#include "utils/timer.h"

#include <array>
#include <ctime>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace
{

enum class Budget { none, playouts, seconds };

// The budget of the search under way, read by Timer (below).
Budget budgetKind = Budget::none;
double budgetAmount = 0;
long timerChecks = 0;
double timerStart = 0;

double cpuNow()
{
    timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return now.tv_sec + now.tv_nsec * 1e-9;
}

constexpr int UNKNOWN = -1;
constexpr int GUILD_BACK = -2;

struct Request
{
    Budget budget = Budget::none;
    double amount = 0;
    unsigned seed = 0;
    int samples = 1;
    int first = -1;
    std::vector<int> tokens;
    std::vector<int> wonders;
    std::array<std::vector<int>, NUM_AGES> deals;
    std::vector<std::vector<int>> draws;
    std::vector<Action> moves;
};

int readInt(std::istringstream& in, const char* what)
{
    long long value;
    if (!(in >> value)) throw std::runtime_error(std::string("expected a number: ") + what);
    return static_cast<int>(value);
}

std::vector<int> readInts(std::istringstream& in, int count, const char* what)
{
    if (count < 0 || count > 1000) throw std::runtime_error(std::string("bad count: ") + what);
    std::vector<int> values;
    for (int i = 0; i < count; i++) values.push_back(readInt(in, what));
    return values;
}

Request parseMove(std::istringstream& in)
{
    Request request;
    std::string kind;
    in >> kind;
    if (kind == "playouts") request.budget = Budget::playouts;
    else if (kind == "seconds") request.budget = Budget::seconds;
    else if (kind == "none") request.budget = Budget::none;
    else throw std::runtime_error("unknown budget: " + kind);
    if (!(in >> request.amount)) throw std::runtime_error("expected the budget's amount");
    request.seed = static_cast<unsigned>(readInt(in, "seed"));
    request.samples = readInt(in, "samples");
    if (request.samples < 1) throw std::runtime_error("samples must be at least 1");
    std::string section;
    while (in >> section && section != "end")
    {
        if (section == "first") request.first = readInt(in, "first");
        else if (section == "tokens") request.tokens = readInts(in, readInt(in, "tokens"), "tokens");
        else if (section == "wonders") request.wonders = readInts(in, 8, "wonders");
        else if (section == "deal")
        {
            int age = readInt(in, "deal age");
            if (age < 1 || age > NUM_AGES) throw std::runtime_error("bad deal age");
            request.deals[age - 1] = readInts(in, PYRAMID_SIZE, "deal");
        }
        else if (section == "draw") request.draws.push_back(readInts(in, readInt(in, "draw"), "draw"));
        else if (section == "moves")
        {
            int count = readInt(in, "moves");
            for (int i = 0; i < count; i++)
            {
                int type = readInt(in, "move type");
                int arg1 = readInt(in, "move arg1");
                int arg2 = readInt(in, "move arg2");
                request.moves.push_back(Action(type, arg1, arg2));
            }
        }
        else throw std::runtime_error("unknown section: " + section);
    }
    if (section != "end") throw std::runtime_error("the request has no end");
    if (request.first != 0 && request.first != 1) throw std::runtime_error("first player missing");
    if (request.tokens.size() != NUM_GAME_TOKENS) throw std::runtime_error("5 tokens needed");
    if (request.wonders.size() != 2 * NUM_WONDERS_PER_PLAYER) throw std::runtime_error("8 wonders needed");
    return request;
}

// Plays the chance actions the request knows and its moves, in the engine's order. Stops
// at the first player move after the last move given, or at a chance action the request
// does not know (then `unknownAge` is that reveal's age, 1 to 3).
void replay(GameState& game, const Request& request, int& unknownAge)
{
    unknownAge = 0;
    size_t nextToken = 0, nextWonder = 0, nextMove = 0, nextDraw = 0, nextDrawn = 0;
    std::array<size_t, NUM_AGES> nextGuild{};
    int second = 1 - request.first;
    const std::vector<int>& w = request.wonders;
    auto own = [&](int player, int k) { return w[player * NUM_WONDERS_PER_PLAYER + k]; };
    // Each round reveals two wonders of each player; the draft then gives each its own.
    std::vector<int> reveals = {
        own(request.first, 0), own(request.first, 1), own(second, 0), own(second, 1),
        own(request.first, 2), own(request.first, 3), own(second, 2), own(second, 3),
    };
    while (!game.isTerminal())
    {
        Action expected = game.getExpectedAction();
        int age = game.getCurrAge();
        switch (expected.type)
        {
        case ACT_REVEAL_FIRST_PLAYER:
            game.doAction(Action(ACT_REVEAL_FIRST_PLAYER, request.first));
            continue;
        case ACT_REVEAL_GAME_TOKEN:
            game.doAction(Action(ACT_REVEAL_GAME_TOKEN, request.tokens.at(nextToken++)));
            continue;
        case ACT_REVEAL_WONDER:
            game.doAction(Action(ACT_REVEAL_WONDER, reveals.at(nextWonder++)));
            continue;
        case ACT_MOVE_SELECT_WONDER:
        {
            int actor = game.getCurrActor();
            int chosen = OBJ_NONE;
            for (int k = 0; k < NUM_WONDERS_PER_PLAYER && chosen == OBJ_NONE; k++)
            {
                if (game.getObjectDeck(own(actor, k)) == DECK_REVEALED_WONDERS) chosen = own(actor, k);
            }
            if (chosen == OBJ_NONE) throw std::runtime_error("the draft cannot give the wonders dealt");
            game.doAction(Action(ACT_MOVE_SELECT_WONDER, chosen));
            continue;
        }
        case ACT_REVEAL_GUILD:
        {
            const std::vector<int>& deal = request.deals[age];
            if (deal.empty()) { unknownAge = age + 1; return; }
            size_t& pos = nextGuild[age];
            while (pos < deal.size() && !(deal[pos] == GUILD_BACK ||
                   (deal[pos] >= 0 && objects.at(deal[pos]).type == OT_GUILD))) pos++;
            if (pos >= deal.size()) throw std::runtime_error("the age 3 deal has fewer than 3 guilds");
            game.doAction(Action(ACT_REVEAL_GUILD, static_cast<int>(pos++)));
            continue;
        }
        case ACT_REVEAL_PYRAMID_CARD:
        {
            const std::vector<int>& deal = request.deals[age];
            if (deal.empty()) { unknownAge = age + 1; return; }
            int card = deal.at(expected.arg2);
            if (card < 0)
                throw std::runtime_error("the card at position " + std::to_string(expected.arg2) + " is not known");
            game.doAction(Action(ACT_REVEAL_PYRAMID_CARD, card, expected.arg2));
            continue;
        }
        case ACT_REVEAL_BOX_TOKEN:
        {
            if (nextDraw >= request.draws.size()) throw std::runtime_error("a Great Library draw is missing");
            const std::vector<int>& drawn = request.draws[nextDraw];
            game.doAction(Action(ACT_REVEAL_BOX_TOKEN, drawn.at(nextDrawn++)));
            if (nextDrawn == drawn.size()) { nextDraw++; nextDrawn = 0; }
            continue;
        }
        default:
            break;
        }
        if (nextMove >= request.moves.size()) return;
        game.doAction(request.moves[nextMove++]);
    }
}

Action search(const GameState& game, double amount, double& playouts)
{
    budgetAmount = amount;
    MCConfig config;
    config.secsPerMove = amount;
    AgentMctsBlindReveals agent(config);
    agent.setGame(game);
    agent.setPlayer(game.getCurrActor());
    long long before = totalNumSims;
    Action action = agent.getAction();
    playouts += static_cast<double>(totalNumSims - before);
    return action;
}

std::string answerMove(std::istringstream& in)
{
    Request request = parseMove(in);
    double start = cpuNow();
    GameState game;
    int unknownAge = 0;
    replay(game, request, unknownAge);
    if (game.isTerminal()) throw std::runtime_error("the game is over");
    std::ostringstream out;
    if (request.budget == Budget::none)
    {
        out << "ready " << game.getCurrActor() << " " << game.getExpectedAction().type << " "
            << (unknownAge ? -1 : static_cast<int>(game.getPossibleActions().size()));
        for (int player = 0; player < NUM_PLAYERS; player++)
            out << " " << game.getCoins(player) << " " << game.getMilitaryLead(player) << " " << game.getScore(player);
        return out.str();
    }
    setSeed(static_cast<int>(request.seed));
    budgetKind = request.budget;
    double playouts = 0;
    Action action;
    int actor;
    if (unknownAge == 0)
    {
        actor = game.getCurrActor();
        if (actor == ACTOR_GAME) throw std::runtime_error("the game waits for a reveal");
        action = search(game, request.amount, playouts);
    }
    else
    {
        // The age's cards are not known yet: search each of SAMPLES random deals (each
        // reveal uniform among the engine's possible ones, as its playouts draw them) and
        // play the answer found most often.
        std::map<Action, int> votes;
        std::vector<Action> order;
        actor = ACTOR_NONE;
        for (int s = 0; s < request.samples; s++)
        {
            GameState sample(&game);
            while (sample.getCurrActor() == ACTOR_GAME)
            {
                Action reveal = uniformElem(sample.getPossibleActions());
                sample.doAction(reveal);
            }
            actor = sample.getCurrActor();
            Action found = search(sample, request.amount / request.samples, playouts);
            if (votes[found]++ == 0) order.push_back(found);
        }
        action = order.front();
        for (const Action& candidate : order)
            if (votes[candidate] > votes[action]) action = candidate;
    }
    out << "action " << action.type << " " << action.arg1 << " " << action.arg2 << " "
        << (cpuNow() - start) << " " << playouts << " " << actor;
    return out.str();
}

std::string deckOf(int id)
{
    for (int card : age1Cards) if (card == id) return "1";
    for (int card : age2Cards) if (card == id) return "2";
    for (int card : age3Cards) if (card == id) return "3";
    for (int card : guildCards) if (card == id) return "guild";
    for (int token : tokens) if (token == id) return "token";
    for (int wonder : wonders) if (wonder == id) return "wonder";
    return "none";
}

void listObjects()
{
    for (const Object& object : objects)
    {
        std::cout << "object " << object.id << " " << object.type << " " << deckOf(object.id) << " "
                  << object.name << "\n";
    }
    for (int age = 0; age < NUM_AGES; age++)
    {
        for (int pos = 0; pos < PYRAMID_SIZE; pos++)
        {
            const PyramidSlotScheme& slot = pyramidSchemes[age][pos];
            std::cout << "slot " << age + 1 << " " << pos << " " << (slot.revealed ? 1 : 0);
            for (int covered : slot.covering) std::cout << " " << covered;
            std::cout << "\n";
        }
    }
    std::cout << "end" << std::endl;
}

std::string oneLine(std::string text)
{
    for (char& c : text) if (c == '\n' || c == '\r') c = ' ';
    size_t begin = text.find_first_not_of(' ');
    return begin == std::string::npos ? std::string() : text.substr(begin);
}

}  // namespace

// The engine's search loop (DO_FOR_SECS) asks the Timer every 10 iterations; this Timer
// counts the budget of the request instead of the wall clock: iterations, or CPU seconds.
Timer::Timer(double secs)
    : secs(secs)
    , startTime(std::chrono::steady_clock::now())
{
    timerChecks = 0;
    timerStart = cpuNow();
}

bool Timer::haveTime() const
{
    if (budgetKind == Budget::playouts) return (timerChecks++) * ITERS_PER_TIME_CHECK < budgetAmount;
    return cpuNow() - timerStart < budgetAmount;
}

int main()
{
    std::ios::sync_with_stdio(false);
    std::cout.precision(6);
    std::string line;
    while (std::getline(std::cin, line))
    {
        std::istringstream in(line);
        std::string command;
        if (!(in >> command)) continue;
        try
        {
            if (command == "objects") { listObjects(); continue; }
            if (command != "move") throw std::runtime_error("unknown command: " + command);
            std::cout << answerMove(in) << std::endl;
        }
        catch (const std::exception& error)
        {
            std::cout << "error " << oneLine(error.what()) << std::endl;
        }
    }
    return 0;
}
