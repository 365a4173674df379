"""The process's answer slots (`answer/slots.py`, made by `services.build`) as a route
dependency: `slots: SlotsDep`."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from citewise.answer.slots import AnswerSlots


async def get_slots(request: Request) -> AnswerSlots:
    slots: AnswerSlots = request.app.state.answer_slots
    return slots


SlotsDep = Annotated[AnswerSlots, Depends(get_slots)]
