"""The user-store contract kit: every `AuthDb` backend passes the same `AuthStore` tests
(users, keys, groups, collections, grants; rights from ownership and grants, in SQL).

    class TestMyAuthStore(AuthStoreContractTests):
        @pytest.fixture
        def auth_db(self, tmp_path: Path) -> AuthDb:
            return MyAuthDb(tmp_path / "users")
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from citewise.auth.db import AuthDb
from citewise.auth.store import AuthStore
from citewise.errors import InputError, NotFoundError


class AuthStoreContractTests:
    """The user store's contract (`AuthStore` over an `AuthDb`). A subclass provides an
    `auth_db` fixture: an empty database of its backend; the `store` fixture puts users
    alice (an admin), bob and carol in it and closes it after the test."""

    @pytest.fixture
    def store(self, auth_db: AuthDb) -> Iterator[AuthStore]:
        made = AuthStore(auth_db)
        for name in ("alice", "bob", "carol"):
            made.create_user(name, "hash-" + name, is_admin=name == "alice")
        yield made
        made.close()

    def test_each_user_owns_a_personal_collection(self, store: AuthStore) -> None:
        bob = store.user("bob")
        assert bob.home_collection == "user-bob"
        assert store.rights(bob.user_id) == (frozenset({"user-bob"}), frozenset({"user-bob"}))
        assert store.collection("user-bob").owner_user == "bob"

    def test_user_names_are_unique_and_checked(self, store: AuthStore) -> None:
        with pytest.raises(InputError, match="already exists"):
            store.create_user("BOB", "h")
        with pytest.raises(InputError, match="invalid user name"):
            store.create_user("../etc", "h")
        with pytest.raises(NotFoundError):
            store.create_user("dave", "h", home_collection="no-such")
        assert store.find_user("dave") is None  # the failed create left nothing

    def test_group_collection_is_read_and_written_by_members_only(self, store: AuthStore) -> None:
        store.create_group("acme")
        store.create_collection("acme-docs", owner_group="acme")
        store.set_member("acme", "bob", member=True)
        bob, carol = store.user("bob"), store.user("carol")
        assert "acme-docs" in store.rights(bob.user_id)[1]
        assert "acme-docs" not in store.rights(carol.user_id)[0]
        store.set_member("acme", "bob", member=False)
        assert "acme-docs" not in store.rights(bob.user_id)[0]

    def test_grants_give_read_or_write_to_a_user_or_group(self, store: AuthStore) -> None:
        store.create_collection("reports", owner_user="bob")
        carol = store.user("carol")
        store.grant("reports", user="carol")
        assert store.rights(carol.user_id) == (
            frozenset({"user-carol", "reports"}),
            frozenset({"user-carol"}),
        )
        store.grant("reports", user="carol", permission="write")  # replaces the read grant
        assert "reports" in store.rights(carol.user_id)[1]
        assert len(store.list_grants("reports")) == 1
        store.revoke_grant("reports", user="carol")
        assert "reports" not in store.rights(carol.user_id)[0]
        with pytest.raises(NotFoundError):
            store.revoke_grant("reports", user="carol")
        store.create_group("readers")
        store.set_member("readers", "carol", member=True)
        store.grant("reports", group="readers")
        assert "reports" in store.rights(carol.user_id)[0]
        assert store.list_grants()[0].grantee_kind == "group"

    def test_keys_belong_to_their_user_and_go_with_them(self, store: AuthStore) -> None:
        bob = store.user("bob")
        made, info = store.create_key(bob.user_id, "ci", frozenset({"read"}), time.time() + 60)
        assert store.get_key(made.key_id) == info
        assert [k.key_id for k in store.list_keys(bob.user_id)] == [made.key_id]
        with pytest.raises(NotFoundError):  # another user's key is as unknown as none
            store.revoke_key(store.user("carol").user_id, made.key_id)
        assert store.revoke_key(bob.user_id, made.key_id).revoked
        store.delete_user("bob")
        assert store.get_key(made.key_id) is None

    def test_a_new_namesake_never_inherits_a_deleted_users_collection(
        self, store: AuthStore
    ) -> None:
        store.delete_user("bob")
        assert store.collection("user-bob").owner_user is None  # kept, ownerless, for an admin
        again = store.create_user("bob", "h")
        assert again.home_collection == "user-bob-2"
        assert store.rights(again.user_id)[0] == {"user-bob-2"}

    def test_keys_need_known_scopes_and_a_future_expiry(self, store: AuthStore) -> None:
        bob = store.user("bob")
        with pytest.raises(InputError, match="scopes"):
            store.create_key(bob.user_id, "", frozenset({"root"}), None)
        with pytest.raises(InputError, match="future"):
            store.create_key(bob.user_id, "", frozenset({"read"}), time.time() - 1)

    def test_store_is_shared_between_threads(self, store: AuthStore) -> None:
        seen: list[int] = []
        threads = [
            threading.Thread(target=lambda: seen.append(len(store.list_users()))) for _ in range(4)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert seen == [3, 3, 3, 3]
