"""The contract kit: pytest mixins every backend of a family passes (stores, conversation
memories, user stores, embedders, job queues). A backend's tests subclass a mixin and give
it the fixture it names, so a new backend is a subclass away. Needs pytest."""
