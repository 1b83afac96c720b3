"""Controls a role may not use are not shown; the page says why instead (issue 13)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_viewer_sees_why_there_is_no_new_procurement_button(client_for, viewer):
    html = (
        client_for(viewer)
        .get("/procurements/", headers={"accept-language": "en"})
        .content.decode()
    )
    assert 'href="/procurements/new/"' not in html
    assert "Your role (Viewer) can read procurements but not create them." in html


def test_it_lead_gets_the_new_procurement_button_and_no_notice(client_for, it_lead):
    html = client_for(it_lead).get("/procurements/").content.decode()
    assert 'href="/procurements/new/"' in html
    assert 'class="denied"' not in html


def test_viewer_reads_a_procurement_with_the_reason_edits_are_missing(
    client_for, viewer, procurement
):
    html = (
        client_for(viewer)
        .get(f"/procurements/{procurement.pk}/", headers={"accept-language": "zh-hans"})
        .content.decode()
    )
    assert f'href="/procurements/{procurement.pk}/edit/"' not in html
    assert 'name="to_stage"' not in html
    assert "只读：您的角色（只读成员）不能修改此采购项目。" in html
    assert "您的角色（只读成员）不能变更阶段" in html


def test_manager_may_edit_and_change_the_stage(client_for, manager, procurement):
    html = client_for(manager).get(f"/procurements/{procurement.pk}/").content.decode()
    assert f'href="/procurements/{procurement.pk}/edit/"' in html
    assert 'name="to_stage"' in html
    assert 'class="denied"' not in html
