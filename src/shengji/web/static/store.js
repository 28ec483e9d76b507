// The client's store, in four parts: store/state.js (the state, the server's view kept as
// data, deltas set into it), store/selectors.js (what the UI asks of it), store/socket.js
// and store/connection.js (the server: HTTP, the room's socket, its messages), and
// store/selection.js (the cards selected, their preview, playing them in one round trip).
// The client computes no rule: every mark it shows is the server's.
export { applyDelta, project, savePlayer, set, state, subscribe } from "./store/state.js";
export { canSelect, msLeft, myTurn, pendingAction, selectedCards } from "./store/selectors.js";
export { act, getJSON, send } from "./store/socket.js";
export {
  answerVote, autoPlay, checkPlayer, checkRules, createRoom, downloadRecord, enterRoom, exitRoom,
  forgetRules, loadMeta, loadRooms, nextDeal, readEvents, register, saveRules, savedRules,
  setErrorHook,
} from "./store/connection.js";
export {
  armSelection, askHint, canPlay, checkSelection, clearSelection, playSelection, selectAction,
  toggleCard,
} from "./store/selection.js";
