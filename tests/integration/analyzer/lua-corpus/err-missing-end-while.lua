while true do
